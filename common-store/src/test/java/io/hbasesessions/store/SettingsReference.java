package io.hbasesessions.store;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every file that lists the settings, made from {@link Setting#all()}: docs/settings.md, the Jetty module's XML
 * calls and ini template, and the setters of Jetty's factory and the Shiro DAO. The build runs {@link #main} (with
 * exec-maven-plugin) to write the module's files and the setters' sources, so a setting is written in one place.
 */
public final class SettingsReference {

    /** The line of a Jetty module template that the XML's calls replace. */
    static final String XML_CALLS_MARKER = "@SETTING_CALLS@";
    /** The line of a Jetty module template that the ini template's entries replace. */
    static final String INI_TEMPLATE_MARKER = "@SETTING_INI_TEMPLATE@";
    /** Regenerates docs/settings.md, from the top of the clone. */
    static final String SETTINGS_PAGE_COMMAND = "mvn -q -pl common-store test-compile exec:java "
            + "-Dexec.classpathScope=test -Dexec.mainClass=" + SettingsReference.class.getName()
            + " -Dexec.args=\"settings-page docs/settings.md\"";

    private SettingsReference() {
    }

    /**
     * {@code setters SOURCE_ROOT CLASS SUPERCLASS typed|text}: the abstract class of setters;
     * {@code jetty-base TEMPLATES OUTPUT}: the module's files, their markers replaced;
     * {@code settings-page FILE}: docs/settings.md.
     */
    public static void main(String[] args) throws IOException {
        switch (args[0]) {
            case "setters" -> write(SettingSetters.file(Path.of(args[1]), args[2]),
                    SettingSetters.source(args[2], args[3], SettingSetters.Style.valueOf(args[4].toUpperCase(Locale.ROOT))));
            case "jetty-base" -> renderJettyBase(Path.of(args[1]), Path.of(args[2]));
            case "settings-page" -> write(Path.of(args[1]), settingsPage());
            default -> throw new IllegalArgumentException("Unknown task " + args[0] + ": setters, jetty-base or settings-page");
        }
    }

    /** docs/settings.md: where the names are used, and the table. */
    public static String settingsPage() {
        return """
                # Settings

                The same names everywhere: Tomcat attributes of `<Manager>` or `<Store>`, Jetty properties
                (`jetty.session.hbase.NAME`, listed in the module's ini template) and the typed setters of
                `HBaseSessionDataStoreFactory` for an embedded Jetty, Shiro bean properties of `HBaseSessionDAO`,
                Spring Boot properties (`hbase.sessions.` and the name in kebab case) and the admin tool's options
                (`--` and the name in kebab case). They are checked when the application starts; a wrong value stops
                it with a message that names the setting and says what is allowed.

                Each setting is defined once, in `Setting` (common-store); the build generates the Jetty module's
                files, the setters and the Spring Boot metadata from it, and the rest read it at run time. This page
                is generated too (`SettingsDocumentationTest` fails when it differs; to regenerate it, run
                `%s` at the top of the clone).

                """.formatted(SETTINGS_PAGE_COMMAND) + markdownTable();
    }

    /** The configuration table of docs/settings.md. */
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

    /** A template of the Jetty module with each marker line replaced by what it stands for. */
    public static String renderJettyTemplate(String template) {
        String rendered = template;
        for (Map.Entry<String, String> marker : Map.of(XML_CALLS_MARKER, jettyXmlCalls(),
                INI_TEMPLATE_MARKER, jettyIniTemplate()).entrySet()) {
            rendered = Pattern.compile("^.*" + marker.getKey() + ".*\n", Pattern.MULTILINE).matcher(rendered)
                    .replaceAll(Matcher.quoteReplacement(marker.getValue()));
        }
        return rendered;
    }

    /**
     * Copies the module's files from {@code templates} to {@code output}, rendered.
     *
     * @throws IllegalStateException unless each marker was found exactly once: the module would lack settings
     */
    static void renderJettyBase(Path templates, Path output) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(templates)) {
            files = walk.filter(Files::isRegularFile).toList();
        }
        StringBuilder all = new StringBuilder();
        for (Path file : files) {
            String template = Files.readString(file, StandardCharsets.UTF_8);
            all.append(template);
            write(output.resolve(templates.relativize(file).toString()), renderJettyTemplate(template));
        }
        for (String marker : List.of(XML_CALLS_MARKER, INI_TEMPLATE_MARKER)) {
            int count = all.toString().split(marker, -1).length - 1;
            if (count != 1) {
                throw new IllegalStateException(marker + " is in the templates under " + templates + " " + count
                        + " times; it must be once");
            }
        }
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static String plain(String markdown) {
        return markdown.replace("`", "");
    }
}
