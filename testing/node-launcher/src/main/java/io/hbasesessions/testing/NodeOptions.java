package io.hbasesessions.testing;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The command line every node program takes (a picocli mixin of the Tomcat and the Jetty node), and
 * the line a node prints once it serves. {@link NodeProcess} writes these options and reads that
 * line, so both ends are defined here.
 */
public final class NodeOptions {

    /** How a node says it serves: {@value} followed by {@code port=<port> server=<server info>}. */
    public static final String READY = "NODE READY";

    static final String PORT = "--port";
    static final String WAR = "--war";
    static final String CONTEXT_PATH = "--context-path";
    static final String WORK_DIRECTORY = "--work-dir";
    static final String ROUTE = "--route";
    static final String STORE_SETTING = "--store-setting";
    static final String USER = "--user";
    static final String SESSIONS = "--sessions";

    /** Where sessions live: in HBase through this project's adapter, or in the container's own memory. */
    public enum Sessions { HBASE, MEMORY }

    /** A user of the node's login realm: {@code NAME:PASSWORD[:ROLE,...]}. */
    public record User(String name, String password, List<String> roles) {

        static User parse(String text) {
            String[] parts = text.split(":", 3);
            if (parts.length < 2 || parts[0].isEmpty()) {
                throw new CommandLine.TypeConversionException("'" + text + "' is not NAME:PASSWORD[:ROLE,...]");
            }
            List<String> roles = parts.length == 3 && !parts[2].isEmpty() ? List.of(parts[2].split(",")) : List.of();
            return new User(parts[0], parts[1], roles);
        }

        /** The option's value for this user. */
        public String asOption() {
            return name + ":" + password + (roles.isEmpty() ? "" : ":" + String.join(",", roles));
        }
    }

    @Option(names = PORT, paramLabel = "PORT",
            description = "HTTP port on 127.0.0.1; 0 picks a free one, printed once the node serves. Default: ${DEFAULT-VALUE}")
    private int port;

    @Option(names = WAR, required = true, paramLabel = "FILE", description = "The WAR to serve.")
    private Path war;

    @Option(names = CONTEXT_PATH, paramLabel = "PATH", description = "Where the WAR is served. Default: ${DEFAULT-VALUE}")
    private String contextPath = "/app";

    @Option(names = WORK_DIRECTORY, required = true, paramLabel = "DIR",
            description = "The container's own files (unpacked WAR, work files).")
    private Path workDirectory;

    @Option(names = ROUTE, paramLabel = "NAME",
            description = "The suffix of the session ids this node issues: Tomcat's jvmRoute, Jetty's worker name.")
    private String route;

    @Option(names = STORE_SETTING, paramLabel = "NAME=VALUE",
            description = "A setting of the store's configuration vocabulary (zookeeperQuorum, keyScope, table, ...), "
                    + "passed to the container's session manager by name. Repeatable.")
    private Map<String, String> storeSettings = new LinkedHashMap<>();

    @Option(names = USER, paramLabel = "NAME:PASSWORD[:ROLE,...]", converter = UserConverter.class,
            description = "A user of the node's login realm (for request.login). Repeatable.")
    private List<User> users = new ArrayList<>();

    @Option(names = SESSIONS, paramLabel = "KIND",
            description = "hbase (this project's store) or memory (the container's own sessions). Default: hbase")
    private Sessions sessions = Sessions.HBASE;

    public int port() {
        return port;
    }

    public Path war() {
        return war;
    }

    public String contextPath() {
        return contextPath;
    }

    public Path workDirectory() {
        return workDirectory;
    }

    public Optional<String> route() {
        return Optional.ofNullable(route);
    }

    public Map<String, String> storeSettings() {
        return storeSettings;
    }

    public List<User> users() {
        return users;
    }

    public Sessions sessions() {
        return sessions;
    }

    /** Prints the line {@link NodeProcess} waits for. */
    public static void announceReady(int port, String serverInfo) {
        System.out.println(READY + " port=" + port + " server=" + serverInfo);
        System.out.flush();
    }

    /**
     * Runs a node's command (a picocli command with this mixin) and returns its exit code. A failure
     * is an {@code error:} line (and the cause's stack trace, for the log) and exit code 1.
     */
    public static int execute(Object command, String... args) {
        return new CommandLine(command)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setExecutionExceptionHandler(NodeOptions::printError)
                .execute(args);
    }

    private static int printError(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) {
        PrintWriter err = commandLine.getErr();
        err.println("error: " + e.getMessage());
        if (e.getCause() != null) {
            e.getCause().printStackTrace(err);
        }
        err.flush();
        return 1;
    }

    static final class UserConverter implements CommandLine.ITypeConverter<User> {
        @Override
        public User convert(String value) {
            return User.parse(value);
        }
    }
}
