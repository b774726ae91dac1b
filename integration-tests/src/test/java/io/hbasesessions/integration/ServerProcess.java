package io.hbasesessions.integration;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * A Tomcat or Jetty started from its distribution as a process of its own, its output in a log file.
 * Closing it sends SIGTERM, the normal way to stop either: both stop cleanly on it.
 */
final class ServerProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Process process;
    private final Path log;

    private ServerProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    /** Starts {@code command} and returns once {@code ready} answers 200. */
    static ServerProcess start(ProcessBuilder command, Path log, URI ready) throws IOException, InterruptedException {
        ServerProcess server = new ServerProcess(command.redirectErrorStream(true).redirectOutput(log.toFile()).start(), log);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        while (!answers(http, ready)) {
            if (!server.process.isAlive() || Instant.now().isAfter(deadline)) {
                server.close();
                throw new AssertionError(ready + " did not answer (see " + log + "):\n" + Files.readString(log));
            }
            Thread.sleep(250);
        }
        return server;
    }

    private static boolean answers(HttpClient http, URI ready) throws InterruptedException {
        try {
            HttpRequest request = HttpRequest.newBuilder(ready).timeout(Duration.ofSeconds(10)).build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    /** A port nothing listens on a moment ago. */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    Path log() {
        return log;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(STOP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new AssertionError("The server did not stop within " + STOP_TIMEOUT + " of SIGTERM: see " + log);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
