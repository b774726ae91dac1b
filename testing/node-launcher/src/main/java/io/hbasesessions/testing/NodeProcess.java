package io.hbasesessions.testing;

import io.hbasesessions.embedded.ParentWatchdog;
import io.hbasesessions.testing.NodeOptions.Sessions;
import io.hbasesessions.testing.NodeOptions.User;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A node program ({@link NodeProgram}) running as a child JVM: it serves one WAR on 127.0.0.1, its
 * output (stdout and stderr) appended to a log file. Its stdin stays a pipe from this JVM, never
 * written to, so the node ends when this JVM dies, even by {@code kill -9} (see {@link ParentWatchdog}).
 *
 * <pre>{@code
 * NodeProcess node = NodeProcess.builder(NodeProgram.JETTY_12_1)
 *         .war(war).contextPath("/app").storeSetting("zookeeperQuorum", quorum)
 *         .workDirectory(work).log(log)
 *         .start()
 *         .awaitReady(Duration.ofSeconds(90));
 * browser.get(node.url().resolve("session"), "op=get");
 * node.stop();
 * }</pre>
 *
 * With port 0 (the default) the node binds a free port and prints it ({@link NodeOptions#READY}),
 * so nothing races for ports; {@link #restart} binds the same port again.
 */
public final class NodeProcess implements AutoCloseable {

    /** Small and quick to start: a node of the tests or the demo serves a few users. */
    public static final List<String> QUICK_START_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /**
     * What docs/operations.md tells every JVM running HBase's client: access to {@code java.nio.Bits}, which the
     * client otherwise reports it cannot use, with a warning and a stack trace, on every start.
     */
    public static final List<String> HBASE_CLIENT_OPTIONS = List.of("--add-opens=java.base/java.nio=ALL-UNNAMED");

    private static final Duration POLL_INTERVAL = Duration.ofMillis(100);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final Builder spec;
    private Process process;
    /** Where this start's output begins in the log: earlier starts' lines are not read for readiness. */
    private long logOffset;
    private int port;
    private String serverInfo;

    private NodeProcess(Builder spec) {
        this.spec = spec;
    }

    public static Builder builder(NodeProgram program) {
        return new Builder(program);
    }

    /**
     * Waits until the node says it serves the WAR and returns this node. Fails if it exits first or
     * does not come up within {@code timeout}; the node is then left as it is ({@link #stop} it).
     */
    public NodeProcess awaitReady(Duration timeout) throws InterruptedException {
        String ready = awaitLine(NodeOptions.READY + " ", timeout);
        String[] fields = ready.substring(NodeOptions.READY.length() + 1).split(" ", 2);
        port = Integer.parseInt(fields[0].substring("port=".length()));
        serverInfo = fields[1].substring("server=".length());
        return this;
    }

    /**
     * Waits until this start of the node prints a line beginning with {@code prefix} and returns that
     * line: {@link #awaitReady} reads {@link NodeOptions#READY} this way, a node program may announce
     * more.
     */
    public String awaitLine(String prefix, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            Optional<String> line = outputLines().stream().filter(output -> output.startsWith(prefix)).findFirst();
            if (line.isPresent()) {
                return line.get();
            }
            if (!process.isAlive()) {
                throw new NodeProcessException("The " + spec.program.container() + " node exited while starting (exit "
                        + "code " + process.exitValue() + "): see " + spec.log);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new NodeProcessException("The " + spec.program.container() + " node did not serve "
                        + spec.war.getFileName() + " within " + timeout.toSeconds() + " s: see " + spec.log);
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /** The port the node serves on, once {@link #awaitReady ready}. */
    public int port() {
        if (serverInfo == null) {
            throw new IllegalStateException("The node is not ready yet: call awaitReady first");
        }
        return port;
    }

    /** {@code http://localhost:<port><context path>/}: the webapp's root. */
    public URI url() {
        return URI.create("http://localhost:" + port() + spec.contextPath + "/");
    }

    /** The container's name and version as the webapp sees it, e.g. {@code Apache Tomcat/10.1.62}. */
    public String serverInfo() {
        port();
        return serverInfo;
    }

    /** The node's output: what Tomcat or Jetty logged, each start after a {@code ====} line. */
    public Path log() {
        return spec.log;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM (Tomcat or Jetty stops cleanly), then SIGKILL if it still runs after 20 s. Does nothing once it ended. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** SIGKILL, as a crash: the node gets no chance to stop cleanly. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the node if it runs, starts it again with the same command line (on the port it had, once
     * it was ready) and waits until it serves again.
     */
    public NodeProcess restart(Duration timeout) throws InterruptedException {
        stop();
        if (serverInfo != null) {
            spec.port = port;
        }
        serverInfo = null;
        launch();
        return awaitReady(timeout);
    }

    /** Same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    private void launch() {
        List<String> command = command();
        try {
            Files.createDirectories(spec.log.getParent());
            Files.writeString(spec.log, "==== " + Instant.now() + " starting " + String.join(" ", command) + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            logOffset = Files.size(spec.log);
            process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new NodeProcessException("Cannot start the " + spec.program.container() + " node (" + e + "): see "
                    + spec.log);
        }
    }

    private List<String> command() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(HBASE_CLIENT_OPTIONS);
        command.addAll(spec.jvmOptions);
        spec.systemProperties.forEach((name, value) -> command.add("-D" + name + "=" + value));
        command.addAll(List.of("-cp", spec.program.classpath(), ParentWatchdog.class.getName(), spec.program.mainClass()));
        command.addAll(List.of(NodeOptions.PORT, Integer.toString(spec.port), NodeOptions.WAR, spec.war.toString(),
                NodeOptions.CONTEXT_PATH, spec.contextPath, NodeOptions.WORK_DIRECTORY, spec.workDirectory.toString(),
                NodeOptions.SESSIONS, spec.sessions.name().toLowerCase()));
        if (spec.route != null) {
            command.addAll(List.of(NodeOptions.ROUTE, spec.route));
        }
        spec.storeSettings.forEach((name, value) -> command.addAll(List.of(NodeOptions.STORE_SETTING, name + "=" + value)));
        spec.users.forEach(user -> command.addAll(List.of(NodeOptions.USER, user.asOption())));
        command.addAll(spec.arguments);
        return command;
    }

    /** This start's output so far, in whole lines. */
    private List<String> outputLines() {
        try (RandomAccessFile file = new RandomAccessFile(spec.log.toFile(), "r")) {
            file.seek(logOffset);
            byte[] bytes = new byte[(int) Math.max(0, file.length() - logOffset)];
            file.readFully(bytes);
            String output = new String(bytes, StandardCharsets.UTF_8);
            int lastNewline = output.lastIndexOf('\n');
            return lastNewline < 0 ? List.of() : output.substring(0, lastNewline).lines().toList();
        } catch (IOException e) {
            throw new NodeProcessException("Cannot read the " + spec.program.container() + " node's log " + spec.log
                    + ": " + e);
        }
    }

    /** What to run and how; {@link #war}, {@link #workDirectory} and {@link #log} are required. */
    public static final class Builder {

        private final NodeProgram program;
        private Path war;
        private String contextPath = "/app";
        private int port;
        private String route;
        private final Map<String, String> storeSettings = new LinkedHashMap<>();
        private final List<User> users = new ArrayList<>();
        private Sessions sessions = Sessions.HBASE;
        private Path workDirectory;
        private Path log;
        private List<String> jvmOptions = QUICK_START_OPTIONS;
        private final Map<String, String> systemProperties = new LinkedHashMap<>();
        private final List<String> arguments = new ArrayList<>();

        private Builder(NodeProgram program) {
            this.program = Objects.requireNonNull(program);
        }

        public Builder war(Path war) {
            this.war = war;
            return this;
        }

        /** Default: {@code /app}. */
        public Builder contextPath(String contextPath) {
            this.contextPath = contextPath;
            return this;
        }

        /** Default: 0, a free port. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Tomcat's jvmRoute, Jetty's worker name. Default: none for Tomcat, {@code node0} for Jetty. */
        public Builder route(String route) {
            this.route = route;
            return this;
        }

        /** A setting of the store's configuration vocabulary, by its name ({@code zookeeperQuorum}, ...). */
        public Builder storeSetting(String name, String value) {
            storeSettings.put(name, value);
            return this;
        }

        public Builder storeSettings(Map<String, String> settings) {
            storeSettings.putAll(settings);
            return this;
        }

        /** A user of the node's login realm. */
        public Builder user(String name, String password, String... roles) {
            users.add(new User(name, password, List.of(roles)));
            return this;
        }

        /** Default: {@link Sessions#HBASE}. */
        public Builder sessions(Sessions sessions) {
            this.sessions = sessions;
            return this;
        }

        /** The container's own files (unpacked WAR, work files). */
        public Builder workDirectory(Path workDirectory) {
            this.workDirectory = workDirectory;
            return this;
        }

        /** Appended to; each start begins with a line naming the command. */
        public Builder log(Path log) {
            this.log = log;
            return this;
        }

        /** Default: {@link #QUICK_START_OPTIONS}. */
        public Builder jvmOptions(List<String> options) {
            this.jvmOptions = List.copyOf(options);
            return this;
        }

        /** A {@code -D} option of the node's JVM (read by the webapp, say). */
        public Builder systemProperty(String name, String value) {
            systemProperties.put(name, value);
            return this;
        }

        /** More arguments for the node program, after the common ones (a program of its own may take more). */
        public Builder arguments(String... more) {
            arguments.addAll(List.of(more));
            return this;
        }

        /** Launches the node; {@link NodeProcess#awaitReady} tells when it serves. */
        public NodeProcess start() {
            Objects.requireNonNull(war, "war");
            Objects.requireNonNull(workDirectory, "workDirectory");
            Objects.requireNonNull(log, "log");
            NodeProcess node = new NodeProcess(this);
            node.launch();
            return node;
        }
    }
}
