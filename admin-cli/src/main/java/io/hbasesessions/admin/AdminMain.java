package io.hbasesessions.admin;

import java.io.InputStream;
import java.io.PrintWriter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code hbase-sessions}: the operators' command line. Each command is a thin layer over the store's
 * {@link io.hbasesessions.store.StoreAdministration}; its options are the configuration settings every
 * container uses ({@link SettingOptions}), plus its own.
 */
@Command(name = "hbase-sessions", mixinStandardHelpOptions = true, version = "hbase-sessions admin command line",
        description = "Operates the HBase tables of hbase-sessions: schema, statistics, one session, revocation, "
                + "the user index, health.",
        subcommands = {CreateTablesCommand.class, VerifyCommand.class, StatsCommand.class, InspectCommand.class,
                RevokeCommand.class, SweepIndexCommand.class, HealthCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit codes (every command):%n", exitCodeList = {
                ExitCodes.OK_LINE, ExitCodes.PROBLEM_LINE, ExitCodes.USAGE_LINE, ExitCodes.UNAVAILABLE_LINE,
                ExitCodes.SCHEMA_LINE, ExitCodes.UNREADABLE_LINE},
        footer = {"%nEvery command takes the store's settings as options (--zookeeper-quorum or --hbase-site, --table, "
                + "--index-table, --key-scope, ...) and --json for machine-readable output: see "
                + "hbase-sessions help <command>."})
public final class AdminMain {

    private final InputStream stdin;

    AdminMain(InputStream stdin) {
        this.stdin = stdin;
    }

    /** Where {@code inspect} reads a session id from when no {@code --id-file} is given. */
    InputStream stdin() {
        return stdin;
    }

    public static void main(String[] args) {
        quietLogging();
        int code = run(args, System.in, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        // The HBase client's threads (a ZooKeeper client still retrying an unreachable quorum) must not keep the JVM.
        System.exit(code);
    }

    /** Runs one command line and returns its exit code: what {@link #main} does, for tests. */
    static int run(String[] args, InputStream stdin, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = commandLine(stdin);
        commandLine.setOut(out);
        commandLine.setErr(err);
        return commandLine.execute(args);
    }

    static CommandLine commandLine(InputStream stdin) {
        CommandLine commandLine = new CommandLine(new AdminMain(stdin));
        commandLine.getSubcommands().values().stream()
                .filter(sub -> sub.getCommand() instanceof StoreCommand)
                .forEach(sub -> {
                    SettingOptions.addTo(sub.getCommandSpec());
                    sub.getCommandSpec().usageMessage().exitCodeListHeading("%nExit codes:%n")
                            .exitCodeList(ExitCodes.list());
                });
        return commandLine.setExitCodeExceptionMapper(error -> ExitCodes.USAGE);
    }

    /** An operator's terminal gets the tool's answer, not the HBase client's INFO lines. */
    private static void quietLogging() {
        Logger.getLogger("").setLevel(Level.WARNING);
        for (Handler handler : Logger.getLogger("").getHandlers()) {
            handler.setLevel(Level.WARNING);
        }
        // An unreachable quorum is reported by the command itself, once, instead of a warning per retry.
        for (String noisy : new String[] {"org.apache.zookeeper", "org.apache.hadoop.hbase.shaded.org.apache.zookeeper",
                "org.apache.hadoop.hbase.client", "org.apache.hadoop.hbase.zookeeper", "org.apache.hadoop.util.NativeCodeLoader"}) {
            Logger.getLogger(noisy).setLevel(Level.SEVERE);
        }
    }
}
