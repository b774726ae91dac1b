package io.hbasesessions.sample.session;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sample application as a child JVM on its Boot line's server (Undertow on Boot 3.5, Tomcat on Boot 4.0), on a
 * free port, its output in a log file; it ends when this JVM dies ({@link ParentWatchdog}).
 */
final class SampleNode {

    private static final Pattern STARTED = Pattern.compile("(?:Undertow|Tomcat) started on port\\D*(\\d+)");

    private final Path log;
    private final Process process;
    private int port;

    private SampleNode(Path log, Process process) {
        this.log = log;
        this.process = process;
    }

    static SampleNode start(Path log, Map<String, String> properties) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp", classpath(),
                ParentWatchdog.class.getName(), SessionSampleApplication.class.getName(), "--server.port=0"));
        properties.forEach((name, value) -> command.add("--" + name + "=" + value));
        Files.createDirectories(log.getParent());
        return new SampleNode(log, new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start());
    }

    SampleNode awaitStarted(Duration timeout) throws IOException, InterruptedException {
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

    URI url(String path) {
        return URI.create("http://localhost:" + port + path);
    }

    void stop() throws InterruptedException {
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
