package io.hbasesessions.admin;

import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * One option per {@link Setting}, named after it ({@code zookeeperQuorum} is {@code --zookeeper-quorum}), with
 * the setting's own description and default: the command line cannot drift from the configuration vocabulary
 * Tomcat, Jetty and the factories share. Values are parsed and checked by {@link StoreSettings}, with its messages.
 * The one exception is {@code createTable}: here the command decides (only {@code create-tables} creates).
 */
final class SettingOptions {

    private SettingOptions() {
    }

    /** {@code --kebab-case} of a setting's name. */
    static String optionName(Setting<?> setting) {
        return "--" + setting.name().replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    /** The settings that are options: every one but {@code createTable}. */
    static List<Setting<?>> settings() {
        return Setting.all().stream().filter(setting -> setting != Setting.CREATE_TABLE).toList();
    }

    /** Adds an option for every setting to {@code command}. */
    static void addTo(CommandSpec command) {
        for (Setting<?> setting : settings()) {
            String defaultText = setting.defaultText().isEmpty() ? "" : " Default: " + setting.defaultText() + ".";
            command.addOption(OptionSpec.builder(optionName(setting))
                    .paramLabel(paramLabel(setting))
                    .type(String.class)
                    .description(setting.description().replace("`", "") + defaultText)
                    .build());
        }
    }

    private static String paramLabel(Setting<?> setting) {
        return setting.name().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    }

    /**
     * The settings given on {@code command}'s line. The tool creates tables only in {@code create-tables}:
     * {@code createTable} is what the command says.
     *
     * @throws io.hbasesessions.store.StoreConfigurationException for a value that does not parse, or settings
     *     that do not go together
     */
    static StoreSettings settings(CommandSpec command, boolean createTable, String defaultKeyScope) {
        StoreSettings.Builder builder = StoreSettings.builder();
        for (Setting<?> setting : settings()) {
            String text = command.findOption(optionName(setting)).getValue();
            builder.set(setting.name(), text);
        }
        return builder.set(Setting.CREATE_TABLE, createTable).defaultKeyScope(defaultKeyScope).build();
    }

    /** Whether the option of {@code setting} was given. */
    static boolean given(CommandSpec command, Setting<?> setting) {
        String text = command.findOption(optionName(setting)).getValue();
        return text != null && !text.isBlank();
    }
}
