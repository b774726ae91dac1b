package io.hbasesessions.admin;

import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import java.io.UncheckedIOException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * What every command shares: the settings options (added by {@link SettingOptions}), {@code --json}, and one
 * mapping of the store's exceptions to exit codes and to a message on stderr (or a JSON error on stdout).
 */
abstract class StoreCommand implements Callable<Integer> {

    /** A key scope only hashing session ids needs; commands that hash one ask for {@code --key-scope} themselves. */
    private static final String NO_KEY_SCOPE = "/";

    @Spec
    CommandSpec spec;

    @ParentCommand
    AdminMain main;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    /** Runs the command with the settings of its line; returns the exit code. */
    abstract int run(StoreSettings settings);

    /** Only {@code create-tables} creates tables; every other command sees a missing one as a problem. */
    boolean createsTables() {
        return false;
    }

    @Override
    public final Integer call() {
        StoreSettings settings;
        try {
            settings = SettingOptions.settings(spec, createsTables(), NO_KEY_SCOPE);
        } catch (StoreConfigurationException e) {
            return fail(ExitCodes.USAGE, e.getMessage());
        }
        try {
            return run(settings);
        } catch (StoreUnavailableException e) {
            return fail(ExitCodes.UNAVAILABLE, e.getMessage());
        } catch (StoreConfigurationException e) {
            return fail(ExitCodes.SCHEMA, e.getMessage());
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return fail(ExitCodes.USAGE, e.getMessage());
        }
    }

    /** Prints the command's answer, as text or JSON, and returns {@code exitCode}. */
    int answer(Object report, int exitCode) {
        Report.print(report, json, spec.commandLine().getOut());
        return exitCode;
    }

    private int fail(int exitCode, String message) {
        if (json) {
            Report.print(Report.of("error", message, "exitCode", exitCode), true, spec.commandLine().getOut());
        } else {
            spec.commandLine().getErr().println("hbase-sessions " + spec.name() + ": " + message);
            spec.commandLine().getErr().flush();
        }
        return exitCode;
    }
}
