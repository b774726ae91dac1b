package io.hbasesessions.store;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The Java source of an abstract class with one bean property setter per {@link Setting}, each handing the
 * value to {@code setSetting(name, text)}: the typed setters of Jetty's store factory and the {@code shiro.ini}
 * properties of the Shiro DAO are generated from the settings at build time, never written by hand.
 */
final class SettingSetters {

    /** How a setter takes its value. */
    enum Style {
        /**
         * By type, as a Java caller configures a Jetty factory: numbers, booleans, choices and paths typed; a pattern
         * or a class list as the text configuration takes (a {@code Pattern}'s flags or a list's syntax would not
         * survive a typed form).
         */
        TYPED,
        /** As text, as {@code shiro.ini} gives every property; the store parses it with its own messages. */
        TEXT
    }

    private SettingSetters() {
    }

    /**
     * @param className the generated class, fully qualified
     * @param superclass what it extends, fully qualified
     */
    static String source(String className, String superclass, Style style) {
        int dot = className.lastIndexOf('.');
        StringBuilder java = new StringBuilder()
                .append("package ").append(className, 0, dot).append(";\n\n")
                .append("/**\n * Every store setting as a bean property, one setter per {@code ")
                .append(Setting.class.getName()).append("}:\n")
                .append(" * generated from the settings at build time by common-store's {@code SettingsReference}.\n")
                .append(" * A null value keeps the setting's default.\n */\n")
                .append("public abstract class ").append(className.substring(dot + 1))
                .append(" extends ").append(superclass).append(" {\n\n")
                .append("    /** Sets one store setting by its configuration name; a null or blank value keeps the default. */\n")
                .append("    public abstract void setSetting(String name, String value);\n");
        Map<Setting<?>, String> constants = constantNames();
        for (Setting<?> setting : Setting.all()) {
            java.append('\n').append(setter(setting, constants.get(setting), style));
        }
        return java.append("}\n").toString();
    }

    /** Where {@link #source} belongs under a source root. */
    static Path file(Path sourceRoot, String className) {
        return sourceRoot.resolve(className.replace('.', '/') + ".java");
    }

    private static String setter(Setting<?> setting, String constant, Style style) {
        String parameterType = style == Style.TYPED ? typedParameter(setting.type()) : "String";
        String text = switch (parameterType) {
            case "String" -> "value";
            case "int", "long", "boolean" -> "String.valueOf(value)";
            default -> "value == null ? null : value.toString()";
        };
        String name = setting.name();
        return "    /**\n     * " + javadoc(setting.description()) + "\n     * <p>"
                + javadoc(setting.allowedValues()) + "; default: "
                + (setting.defaultText().isEmpty() ? "none" : javadoc(setting.defaultText())) + ".\n     */\n"
                + "    public void set" + Character.toUpperCase(name.charAt(0)) + name.substring(1)
                + "(" + parameterType + " value) {\n"
                + "        setSetting(" + Setting.class.getName() + "." + constant + ".name(), " + text + ");\n"
                + "    }\n";
    }

    private static String typedParameter(Class<?> type) {
        if (type == Integer.class) {
            return "int";
        }
        if (type == Long.class) {
            return "long";
        }
        if (type == Boolean.class) {
            return "boolean";
        }
        if (type.isEnum() || type == Path.class) {
            return type.getCanonicalName();
        }
        return "String";
    }

    /** The constant of {@link Setting} that holds each setting, which the generated code refers to. */
    private static Map<Setting<?>, String> constantNames() {
        Map<Setting<?>, String> names = new IdentityHashMap<>();
        for (Field field : Setting.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == Setting.class) {
                try {
                    names.put((Setting<?>) field.get(null), field.getName());
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return names;
    }

    /** Plain text: no code marks, and nothing Javadoc would read as HTML or a tag. */
    private static String javadoc(String markdown) {
        return markdown.replace("`", "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("@", "&#64;").replace("*/", "*&#47;");
    }
}
