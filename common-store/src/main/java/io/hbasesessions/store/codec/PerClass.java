package io.hbasesessions.store.codec;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A value computed once per class and kept where it cannot keep a class loader in memory. A
 * {@link ClassValue} keeps its value on the class: right for a web application's classes when this library
 * lives in the container (the value goes with the application), wrong for a JDK class (the value, of one of
 * this library's classes, would keep this library's loader, a web application's when it came in a WAR, for
 * as long as the JDK lives). The classes of this library's loader and of the loaders above it (the JDK's)
 * live at least as long as this library: their values are kept here instead.
 */
public final class PerClass<T> {

    private static final ClassLoader LIBRARY = PerClass.class.getClassLoader();

    private final Function<Class<?>, T> compute;
    private final Map<Class<?>, T> outlivingThisLibrary = new ConcurrentHashMap<>();
    private final ClassValue<T> onTheClass = new ClassValue<>() {
        @Override
        protected T computeValue(Class<?> type) {
            return compute.apply(type);
        }
    };

    public PerClass(Function<Class<?>, T> compute) {
        this.compute = compute;
    }

    public T get(Class<?> type) {
        return outlivesThisLibrary(type) ? outlivingThisLibrary.computeIfAbsent(type, compute) : onTheClass.get(type);
    }

    private static boolean outlivesThisLibrary(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        for (ClassLoader above = LIBRARY; above != null; above = above.getParent()) {
            if (above == loader) {
                return true;
            }
        }
        return loader == null;
    }
}
