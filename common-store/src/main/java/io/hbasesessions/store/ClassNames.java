package io.hbasesessions.store;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Classes and packages named in configuration ({@code allowedAttributeClasses}): {@code com.shop.Money} is that
 * class and its nested classes, {@code com.shop.model.} (ending in a dot) every class of that package and of
 * the packages below it.
 *
 * @param entries the names as configured, each a class or a package ending in '.'
 */
public record ClassNames(List<String> entries) {

    private static final Pattern ENTRY = Pattern.compile("(?:\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*\\.)+"
            + "(?:\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*)?|\\p{javaJavaIdentifierStart}\\p{javaJavaIdentifierPart}*");

    public ClassNames {
        entries = List.copyOf(entries);
    }

    /**
     * Names separated by commas or white space.
     *
     * @throws IllegalArgumentException naming the first entry that is not a class or package name
     */
    public static ClassNames parse(String text) {
        List<String> entries = new ArrayList<>();
        for (String entry : text.split("[,\\s]+")) {
            if (entry.isEmpty()) {
                continue;
            }
            String name = entry.endsWith(".*") ? entry.substring(0, entry.length() - 1) : entry;
            if (!ENTRY.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + entry + "' is not a class name (com.shop.Money) or a package "
                        + "name ending in a dot (com.shop.model.)");
            }
            entries.add(name);
        }
        return new ClassNames(entries);
    }

    /** Whether {@code className} is one of the classes named, nested in one, or in one of the packages named. */
    public boolean contains(String className) {
        for (String entry : entries) {
            boolean matches = entry.endsWith(".") ? className.startsWith(entry)
                    : className.equals(entry) || className.startsWith(entry) && className.charAt(entry.length()) == '$';
            if (matches) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return String.join(",", entries);
    }
}
