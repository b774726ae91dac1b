package io.hbasesessions.testing;

import io.hbasesessions.store.StoreSettings;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * Applies store settings by their configuration names through the setters of those names, as Tomcat
 * applies {@code <Manager>} attributes and Jetty's XML applies {@code <Set name="...">}: on
 * {@code HBaseSessionManager} and on {@code HBaseSessionDataStoreFactory} alike. Only names of the
 * store's vocabulary are accepted.
 */
final class StoreSettingSetters {

    private StoreSettingSetters() {
    }

    static void apply(Map<String, String> settings, Object target) {
        settings.forEach((name, value) -> set(target, name, value));
    }

    private static void set(Object target, String name, String value) {
        if (!StoreSettings.settingNames().contains(name)) {
            throw new IllegalArgumentException("Unknown store setting '" + name + "'. Known settings: "
                    + String.join(", ", StoreSettings.settingNames()));
        }
        Method setter = setter(target.getClass(), name).orElseThrow(() -> new IllegalArgumentException(
                target.getClass().getName() + " has no setter for the store setting " + name));
        try {
            setter.invoke(target, convert(value, setter.getParameterTypes()[0], name));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("Cannot call " + setter, e);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("Store setting " + name + "=" + value + ": " + e.getCause().getMessage(),
                    e.getCause());
        }
    }

    /** {@code set<Name>} with one parameter of a type a text converts to; a String one first. */
    private static Optional<Method> setter(Class<?> type, String name) {
        String setterName = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
        return Arrays.stream(type.getMethods())
                .filter(method -> method.getName().equals(setterName) && method.getParameterCount() == 1)
                .filter(method -> isConvertible(method.getParameterTypes()[0]))
                .min((a, b) -> Boolean.compare(a.getParameterTypes()[0] != String.class,
                        b.getParameterTypes()[0] != String.class));
    }

    private static boolean isConvertible(Class<?> type) {
        return type == String.class || type == int.class || type == long.class || type == boolean.class;
    }

    private static Object convert(String value, Class<?> type, String name) {
        try {
            if (type == int.class) {
                return Integer.parseInt(value.trim());
            }
            if (type == long.class) {
                return Long.parseLong(value.trim());
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Store setting " + name + "=" + value + " is not a number", e);
        }
        if (type == boolean.class) {
            if (!value.trim().matches("(?i)true|false")) {
                throw new IllegalArgumentException("Store setting " + name + "=" + value + " is neither true nor false");
            }
            return Boolean.parseBoolean(value.trim());
        }
        return value;
    }
}
