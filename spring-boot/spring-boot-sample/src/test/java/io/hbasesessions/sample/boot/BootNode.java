package io.hbasesessions.sample.boot;

import io.hbasesessions.embedded.ParentWatchdog;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The sample application as a child JVM on one embedded server: the application's runtime classpath
 * without the other server's jars, which is what a user's build with only that server's starter gives.
 * Its output goes to a log file; it ends when this JVM dies ({@link ParentWatchdog}).
 */
final class BootNode {

    /** The embedded servers, each with the jars an application that uses the other one does not have. */
    enum Server {
        TOMCAT("/org/eclipse/jetty/", "/spring-boot-jetty-", "/spring-boot-starter-jetty-"),
        JETTY("/org/apache/tomcat/", "/spring-boot-tomcat-", "/spring-boot-starter-tomcat-");

        private final List<String> othersJars;

        Server(String... othersJars) {
            this.othersJars = List.of(othersJars);
        }

        boolean keeps(String jar) {
            String path = jar.replace(File.separatorChar, '/');
            return othersJars.stream().noneMatch(path::contains);
        }
    }

    /** Boot's line once the server listens: "Tomcat started on port 8080 (http) ..." or "Jetty started on port 8080 ...". */
    private static final Pattern STARTED = Pattern.compile("(Tomcat|Jetty) started on port\\D*(\\d+)");
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Server server;
    private final Path log;
    private final List<String> arguments = new ArrayList<>();
    private Process process;
    private long logOffset;
    private int port;

    BootNode(Server server, Path log, Map<String, String> properties) {
        this.server = server;
        this.log = log;
        properties.forEach((name, value) -> arguments.add("--" + name + "=" + value));
    }

    /** Starts the application: on a free port the first time, on the port it had after that. */
    BootNode start() throws IOException {
        launch(List.of("--server.port=" + port));
        return this;
    }

    /** Waits until the application serves. */
    BootNode awaitStarted(Duration timeout) throws IOException, InterruptedException {
        Matcher started = awaitLine(STARTED, timeout);
        port = Integer.parseInt(started.group(2));
        return this;
    }

    /**
     * Starts it with more properties and waits for it to exit, as an application that refuses its
     * configuration does: its output.
     */
    String startExpectingExit(List<String> moreArguments, Duration timeout) throws IOException, InterruptedException {
        launch(moreArguments);
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            stop();
            throw new AssertionError("The application kept running; see " + log);
        }
        return output();
    }

    int exitCode() {
        return process.exitValue();
    }

    URI url(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    void stop() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

    Path log() {
        return log;
    }

    private void launch(List<String> moreArguments) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classpath(),
                ParentWatchdog.class.getName(), SampleApplication.class.getName()));
        command.addAll(arguments);
        command.addAll(moreArguments);
        Files.createDirectories(log.getParent());
        Files.writeString(log, "==== " + Instant.now() + " starting " + String.join(" ", command) + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        logOffset = Files.size(log);
        process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
    }

    private Matcher awaitLine(Pattern line, Duration timeout) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            Matcher matcher = line.matcher(output());
            if (matcher.find()) {
                return matcher;
            }
            if (!process.isAlive()) {
                throw new AssertionError("The application on " + server + " exited while starting (exit code "
                        + process.exitValue() + "); see " + log);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("The application on " + server + " did not start within "
                        + timeout.toSeconds() + " s; see " + log);
            }
            Thread.sleep(100);
        }
    }

    /** What this start of the application printed so far. */
    private String output() throws IOException {
        byte[] all = Files.readAllBytes(log);
        return new String(all, (int) Math.min(logOffset, all.length), (int) Math.max(0, all.length - logOffset),
                StandardCharsets.UTF_8);
    }

    private String classpath() throws IOException {
        Stream<String> dependencies = Stream.of(Files.readString(Path.of("target", "application.classpath")).strip()
                .split(File.pathSeparator));
        return Stream.concat(Stream.of(Path.of("target", "classes").toAbsolutePath().toString(), watchdog()),
                        dependencies.filter(server::keeps))
                .collect(Collectors.joining(File.pathSeparator));
    }

    private static String watchdog() {
        try {
            return Path.of(ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return server + " on port " + port;
    }
}
