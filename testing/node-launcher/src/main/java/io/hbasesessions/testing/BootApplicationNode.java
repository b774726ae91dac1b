package io.hbasesessions.testing;

import io.hbasesessions.embedded.LocalHBase;
import io.hbasesessions.embedded.ParentWatchdog;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Spring Boot sample application as a child JVM, as the samples' tests start it: the module's
 * {@code target/classes} and the runtime classpath its build wrote to {@code target/application.classpath}, on a free
 * port on whichever server its Boot line runs (Undertow, Tomcat, Jetty, Netty), its output in a log file; it ends when
 * this JVM dies ({@link ParentWatchdog}).
 */
public final class BootApplicationNode implements SampleNode {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Path LOGS = Path.of("target", "sample-nodes");
    private static final Pattern STARTED = Pattern.compile("(?:Undertow|Tomcat|Jetty|Netty) started on port\\D*(\\d+)");

    private final Path log;
    private final Process process;
    private int port;

    private BootApplicationNode(Path log, Process process) {
        this.log = log;
        this.process = process;
    }

    /**
     * Two nodes of {@code application} (its main class) sharing {@code hbase}, their tables named by {@code tables} (a
     * test namespace's {@code table}; one region each), their logs {@code one.log} and {@code two.log} in
     * {@code target/sample-nodes}; started at once, waited for together.
     */
    public static List<BootApplicationNode> startTwo(Class<?> application, LocalHBase hbase, UnaryOperator<String> tables)
            throws IOException, InterruptedException {
        Map<String, String> properties = storeProperties(hbase, tables);
        String mainClass = application.getName();
        List<BootApplicationNode> nodes = List.of(start(LOGS.resolve("one.log"), mainClass, properties),
                start(LOGS.resolve("two.log"), mainClass, properties));
        for (BootApplicationNode node : nodes) {
            node.awaitStarted(START_TIMEOUT);
        }
        return nodes;
    }

    /** The {@code hbase.sessions.*} properties of a node on {@code hbase}, its tables named by {@code tables}, one region. */
    public static Map<String, String> storeProperties(LocalHBase hbase, UnaryOperator<String> tables) {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("hbase.sessions.zookeeper-quorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        properties.put("hbase.sessions.table", tables.apply("sessions"));
        properties.put("hbase.sessions.index-table", tables.apply("user_sessions"));
        properties.put("hbase.sessions.regions", "1");
        return properties;
    }

    /** Starts {@code mainClass} with {@code --name=value} for each property; {@link #awaitStarted} waits for it. */
    public static BootApplicationNode start(Path log, String mainClass, Map<String, String> properties)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp", classpath(), ParentWatchdog.class.getName(), mainClass, "--server.port=0"));
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        Files.createDirectories(log.getParent());
        return new BootApplicationNode(log, new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start());
    }

    /** Waits until the server says on which port it listens. */
    public BootApplicationNode awaitStarted(Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        Matcher started = STARTED.matcher("");
        while (!started.reset(Files.readString(log, StandardCharsets.UTF_8)).find()) {
            if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                throw new AssertionError("The application did not start; see " + log);
            }
            Thread.sleep(100);
        }
        port = Integer.parseInt(started.group(1));
        return this;
    }

    @Override
    public URI url(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    @Override
    public void stop() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    private static String classpath() throws IOException {
        return String.join(File.pathSeparator, Path.of("target", "classes").toAbsolutePath().toString(),
                ParentWatchdog.location().toString(),
                Files.readString(Path.of("target", "application.classpath")).strip());
    }

    @Override
    public String toString() {
        return "the node on port " + port;
    }
}
