package io.hbasesessions.demo;

import io.hbasesessions.embedded.ParentWatchdog;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One shop node: a child JVM serving the shop WAR at {@code http://localhost:<port>/shop/}, its
 * output appended to a log file. Its stdin stays a pipe from this JVM, so it ends when this JVM
 * dies (see {@link ParentWatchdog}). Public for the cross-container tests (module
 * {@code integration-tests}), which start the same nodes with the test WAR, a context path and
 * tables of their own.
 */
public final class ShopNode {

    /**
     * A WAR and how the nodes serve it: at {@code contextPath}, and ready once {@code readyPath} (under
     * the context path, query allowed) answers 200 with a {@code server=<container>/<version>} line.
     */
    public record Webapp(Path war, String contextPath, String readyPath) {

        /** The shop: at {@code /shop}, ready once {@code cart.txt} answers. */
        static Webapp shop(Path war) {
            return new Webapp(war, "/shop", "/cart.txt");
        }

        /** The webapp's root on the node listening on {@code port}. */
        public URI url(int port) {
            return URI.create("http://localhost:" + port + contextPath + "/");
        }
    }

    /** The sessions table and the principal index table, each {@code [namespace:]name}. */
    public record Tables(String sessions, String index) {
    }

    /**
     * What both nodes share: the webapp, the HBase to keep sessions in, the key scope, the tables (null:
     * the adapters' defaults), the data directory (logs, the nodes' work directories).
     */
    public record Shared(Webapp webapp, String zookeeperQuorum, String keyScope, Tables tables, Path dataDirectory) {

        /** With the adapters' default tables. */
        public Shared(Webapp webapp, String zookeeperQuorum, String keyScope, Path dataDirectory) {
            this(webapp, zookeeperQuorum, keyScope, null, dataDirectory);
        }
    }

    /** Small and quick to start: a demo node serves one person. */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final NodeKind kind;
    private final int port;
    private final Webapp webapp;
    private final Path log;
    private final Process process;

    private ShopNode(NodeKind kind, int port, Webapp webapp, Path log, Process process) {
        this.kind = kind;
        this.port = port;
        this.webapp = webapp;
        this.log = log;
        this.process = process;
    }

    /** Launches the node; {@link #awaitServing} tells when it answers. */
    public static ShopNode start(NodeKind kind, int port, URI otherNode, Shared shared) {
        Path log = logFile(kind, shared.dataDirectory());
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        // Read by the shop's page: which node served it, and where the other one is.
        command.add("-Dhbase.sessions.demo.node=" + kind.nodeName());
        command.add("-Dhbase.sessions.demo.otherNode=" + otherNode);
        command.addAll(List.of("-cp", kind.classpath(), ParentWatchdog.class.getName(), kind.mainClassName(),
                "--port", Integer.toString(port),
                "--war", shared.webapp().war().toString(),
                "--context-path", shared.webapp().contextPath(),
                "--zookeeper-quorum", shared.zookeeperQuorum(),
                "--key-scope", shared.keyScope(),
                "--work-dir", shared.dataDirectory().resolve(kind.nodeName()).toString()));
        if (shared.tables() != null) {
            command.addAll(List.of("--table", shared.tables().sessions(), "--index-table", shared.tables().index()));
        }
        try {
            Files.createDirectories(log.getParent());
            Files.writeString(log, "==== " + Instant.now() + " demo starts " + String.join(" ", command) + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
            return new ShopNode(kind, port, shared.webapp(), log, process);
        } catch (IOException e) {
            throw new DemoException("Cannot start the " + kind.container() + " node (" + e + "): see " + log);
        }
    }

    static Path logFile(NodeKind kind, Path dataDirectory) {
        return dataDirectory.resolve("logs").resolve(kind.nodeName() + ".log");
    }

    /** The webapp's root on this node. */
    public URI url() {
        return webapp.url(port);
    }

    /** The node's output: what Tomcat or Jetty logged. */
    public Path log() {
        return log;
    }

    long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until the webapp answers on this node and returns the container's name and version as the
     * webapp reports it (e.g. {@code Apache Tomcat/10.1.62}).
     */
    public String awaitServing(Duration timeout) throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest facts = HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + webapp.contextPath() + webapp.readyPath()))
                .timeout(Duration.ofSeconds(10)).build();
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            if (!process.isAlive()) {
                throw new DemoException("The " + kind.container() + " node exited while starting (exit code "
                        + process.exitValue() + "): see " + log);
            }
            try {
                HttpResponse<String> response = http.send(facts, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return response.body().lines().filter(line -> line.startsWith("server="))
                            .map(line -> line.substring("server=".length())).findFirst().orElse(kind.container());
                }
            } catch (IOException notYet) {
                // Not listening yet.
            }
            if (Instant.now().isAfter(deadline)) {
                    throw new DemoException("The " + kind.container() + " node did not serve " + webapp.war().getFileName()
                        + " within " + timeout.toSeconds() + " s: see " + log);
            }
            Thread.sleep(POLL_INTERVAL.toMillis());
        }
    }

    /** SIGTERM (Tomcat or Jetty stops cleanly), then SIGKILL if it still runs after {@link #STOP_TIMEOUT}. */
    public void stop() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
