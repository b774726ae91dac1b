package io.hbasesessions.admin;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A command's answer as a tree of maps, lists and scalars, printed either as JSON ({@code --json}) or as
 * indented text: every command builds one, so the two outputs always say the same.
 */
final class Report {

    private static final int MAX_LINE_CHARS = 160;

    private Report() {
    }

    static void print(Object report, boolean json, PrintWriter out) {
        if (json) {
            StringBuilder text = new StringBuilder();
            json(report, text);
            out.println(text);
        } else {
            text(report, "", out);
        }
        out.flush();
    }

    private static void text(Object value, String indent, PrintWriter out) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, item) -> {
                if (isScalar(item)) {
                    out.println(indent + key + ": " + scalar(item).replace("\n", "\n" + indent + "    "));
                } else {
                    out.println(indent + key + ":");
                    text(item, indent + "  ", out);
                }
            });
        } else if (value instanceof Collection<?> list) {
            if (list.isEmpty()) {
                out.println(indent + "(none)");
            }
            list.forEach(item -> listItem(item, indent, out));
        } else {
            out.println(indent + scalar(value));
        }
    }

    /** A scalar or a short map of scalars on one line ({@code key=value, ...}), anything else as a block. */
    private static void listItem(Object item, String indent, PrintWriter out) {
        if (isScalar(item)) {
            out.println(indent + "- " + scalar(item).replace("\n", "\n" + indent + "    "));
            return;
        }
        if (item instanceof Map<?, ?> map && map.values().stream().allMatch(Report::isScalar)) {
            StringBuilder line = new StringBuilder();
            map.forEach((key, value) -> line.append(line.length() == 0 ? "" : ", ").append(key).append('=')
                    .append(scalar(value)));
            if (line.length() <= MAX_LINE_CHARS && line.indexOf("\n") < 0) {
                out.println(indent + "- " + line);
                return;
            }
        }
        StringWriter block = new StringWriter();
        text(item, indent + "  ", new PrintWriter(block, true));
        out.print(indent + "- " + block.toString().substring(indent.length() + 2));
    }

    private static boolean isScalar(Object value) {
        return !(value instanceof Map<?, ?>) && !(value instanceof Collection<?>);
    }

    private static String scalar(Object value) {
        if (value instanceof Optional<?> optional) {
            return optional.map(Report::scalar).orElse("-");
        }
        if (value instanceof FromCell cell) {
            return escaped(cell.text());
        }
        return value == null ? "-" : String.valueOf(value);
    }

    /**
     * Text read from a stored cell, which whoever wrote the cell chose: in text output every control character
     * (ESC, BEL, CR, line breaks...), format character (bidirectional overrides) and backslash is escaped as in
     * Java, so that it can neither move the terminal's cursor nor pass for a line of the report; JSON escapes its own.
     */
    record FromCell(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    static FromCell fromCell(String text) {
        return new FromCell(text);
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                out.append("\\\\");
            } else if (Character.isISOControl(c) || Character.getType(c) == Character.FORMAT
                    || Character.getType(c) == Character.LINE_SEPARATOR
                    || Character.getType(c) == Character.PARAGRAPH_SEPARATOR) {
                out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static void json(Object value, StringBuilder out) {
        if (value instanceof Optional<?> optional) {
            json(optional.orElse(null), out);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(first ? "" : ",");
                first = false;
                string(String.valueOf(entry.getKey()), out);
                out.append(':');
                json(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof Collection<?> list) {
            out.append('[');
            boolean first = true;
            for (Object item : list) {
                out.append(first ? "" : ",");
                first = false;
                json(item, out);
            }
            out.append(']');
        } else if (value == null) {
            out.append("null");
        } else if (value instanceof Number || value instanceof Boolean) {
            out.append(value);
        } else {
            string(String.valueOf(value), out);
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A map of alternating keys and values, in order: {@code Report.of("created", names, "dryRun", false)}. */
    static Map<String, Object> of(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }
}
