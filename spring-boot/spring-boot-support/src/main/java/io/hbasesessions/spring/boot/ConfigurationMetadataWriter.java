package io.hbasesessions.spring.boot;

import io.hbasesessions.store.Setting;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes {@code META-INF/spring-configuration-metadata.json} from the settings at build time, so an IDE
 * completes and explains every {@code hbase.sessions.*} property as the table of docs/settings.md does.
 */
public final class ConfigurationMetadataWriter {

    private static final Pattern BACKTICKED = Pattern.compile("`([^`]*)`");
    /** Allowed values that are a plain list of choices ({@code `a`, `b`}), which an IDE can offer. */
    private static final Pattern CHOICES = Pattern.compile("`[^`]+`(, `[^`]+`)+");

    private ConfigurationMetadataWriter() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        Files.createDirectories(file.getParent());
        Files.writeString(file, metadata(), StandardCharsets.UTF_8);
    }

    static String metadata() {
        List<String> properties = new ArrayList<>();
        properties.add(property(SessionStoreProperties.ENABLED, Boolean.class.getName(),
                "Store the sessions of the embedded Tomcat or Jetty in HBase; false leaves the server its own sessions.",
                "true"));
        properties.add(property(SessionStoreProperties.ROUTE, String.class.getName(),
                "This node's route: the suffix of its session ids (Tomcat's jvmRoute, Jetty's worker name) that a load "
                        + "balancer routes by. Needed by sticky-sessions; different on every node.", null));
        List<String> hints = new ArrayList<>();
        for (Setting<?> setting : Setting.all()) {
            String description = plain(setting.description()) + " Allowed: " + plain(setting.allowedValues()).replaceAll("\\.+$", "") + ".";
            properties.add(property(SessionStoreProperties.propertyName(setting), javaType(setting), description,
                    setting.defaultValue().isPresent() ? setting.defaultText() : null));
            if (setting.type() != Boolean.class && CHOICES.matcher(setting.allowedValues()).matches()) {
                hints.add(hint(setting));
            }
        }
        return "{\n  \"groups\": [\n    {\"name\": " + quoted(SessionStoreProperties.PREFIX) + ", \"description\": "
                + quoted("HBase sessions: the store settings of the embedded server's sessions.") + "}\n  ],\n"
                + "  \"properties\": [\n" + String.join(",\n", properties) + "\n  ],\n"
                + "  \"hints\": [\n" + String.join(",\n", hints) + "\n  ]\n}\n";
    }

    /** Boot binds each value as text and the store parses it, so only the simple types are named as such. */
    private static String javaType(Setting<?> setting) {
        Class<?> type = setting.type();
        return type == Integer.class || type == Long.class || type == Boolean.class ? type.getName() : String.class.getName();
    }

    private static String property(String name, String type, String description, String defaultValue) {
        StringBuilder json = new StringBuilder("    {\"name\": ").append(quoted(name))
                .append(", \"type\": ").append(quoted(type))
                .append(", \"description\": ").append(quoted(description));
        if (defaultValue != null) {
            json.append(", \"defaultValue\": ").append(type.equals(String.class.getName()) ? quoted(defaultValue) : defaultValue);
        }
        return json.append('}').toString();
    }

    private static String hint(Setting<?> setting) {
        List<String> values = new ArrayList<>();
        Matcher choice = BACKTICKED.matcher(setting.allowedValues());
        while (choice.find()) {
            values.add("{\"value\": " + quoted(choice.group(1)) + "}");
        }
        return "    {\"name\": " + quoted(SessionStoreProperties.propertyName(setting)) + ", \"values\": ["
                + String.join(", ", values) + "]}";
    }

    /** The descriptions' Markdown without its code marks: IDEs show descriptions as plain text. */
    static String plain(String markdown) {
        Matcher matcher = BACKTICKED.matcher(markdown);
        return matcher.replaceAll(match -> Matcher.quoteReplacement(match.group(1)));
    }

    static String quoted(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        return json.append('"').toString();
    }
}
