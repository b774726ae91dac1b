package io.hbasesessions.store;

import java.util.stream.Collectors;

/**
 * The documentation forms of {@link Setting#all()}: the table of docs/settings.md, the Jetty module's XML calls
 * and ini template. Tests compare the files with these, so a setting is defined in one place and every file that
 * lists it is checked against it (a failing test prints the text to paste).
 */
public final class SettingsReference {

    private SettingsReference() {
    }

    /** The table of docs/settings.md, its header included. */
    public static String markdownTable() {
        return Setting.all().stream()
                .map(setting -> "| `" + setting.name() + "` | " + markdownDefault(setting) + " | "
                        + setting.allowedValues() + " | " + setting.description() + " |")
                .collect(Collectors.joining("\n", "| Setting | Default | Unit / values | Meaning |\n|---|---|---|---|\n", "\n"));
    }

    private static String markdownDefault(Setting<?> setting) {
        return setting.defaultValue().isPresent() ? "`" + setting.defaultText() + "`" : "none";
    }

    /** The factory calls of the module's XML, one per setting, each read from {@code jetty.session.hbase.NAME}. */
    public static String jettyXmlCalls() {
        return Setting.all().stream()
                .map(setting -> "        <Call name=\"setSetting\"><Arg>" + setting.name()
                        + "</Arg><Arg><Property name=\"jetty.session.hbase." + setting.name() + "\"/></Arg></Call>")
                .collect(Collectors.joining("\n", "", "\n"));
    }

    /** The module's ini template: each setting commented out, with its meaning and default. */
    public static String jettyIniTemplate() {
        return Setting.all().stream()
                .map(setting -> "## " + plain(setting.description()) + " (" + plain(setting.allowedValues()) + ")\n"
                        + "# jetty.session.hbase." + setting.name() + "=" + setting.defaultText())
                .collect(Collectors.joining("\n\n", "", "\n"));
    }

    private static String plain(String markdown) {
        return markdown.replace("`", "");
    }
}
