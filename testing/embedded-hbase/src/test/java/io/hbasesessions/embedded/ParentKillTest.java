package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A parent killed with SIGKILL runs no shutdown hook: the watchdog in the server must end it. */
class ParentKillTest {

    private static final long PARENT_START_TIMEOUT_SECONDS = 120;
    private static final long SERVER_EXIT_TIMEOUT_SECONDS = 15;

    @TempDir
    Path dataDirectory;

    @Test
    void serverExitsWhenItsParentIsKilled() throws Exception {
        Process parent = startParentJvm();
        ProcessHandle server = null;
        try {
            server = ProcessHandle.of(awaitServerPid(parent)).orElseThrow();
            parent.destroyForcibly().waitFor();
            long killedNanos = System.nanoTime();

            assertTrue(completesWithin(server.onExit(), SERVER_EXIT_TIMEOUT_SECONDS),
                    "the server " + server.pid() + " still runs " + SERVER_EXIT_TIMEOUT_SECONDS + " s after its parent was killed");
            System.out.printf("server exited %d ms after its parent was killed%n", (System.nanoTime() - killedNanos) / 1_000_000);
            ServerProcesses.assertNoServerLeft(server.pid(), dataDirectory);
        } finally {
            parent.destroyForcibly();
            if (server != null) {
                server.destroyForcibly();
            }
        }
    }

    private Process startParentJvm() throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
                ServerInSeparateJvm.class.getName(), dataDirectory.toString()))
                .redirectErrorStream(true)
                .start();
    }

    /** Reads the parent's output until it names the server's pid; fails with that output otherwise. */
    private static long awaitServerPid(Process parent) throws Exception {
        StringBuffer output = new StringBuffer();
        CompletableFuture<Long> pid = CompletableFuture.supplyAsync(() -> readServerPid(parent, output));
        try {
            return pid.get(PARENT_START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("The parent JVM printed no server pid within " + PARENT_START_TIMEOUT_SECONDS
                    + " s. Its output:\n" + output, e);
        }
    }

    private static long readServerPid(Process parent, StringBuffer output) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith(ServerInSeparateJvm.PID_PREFIX)) {
                    return Long.parseLong(line.substring(ServerInSeparateJvm.PID_PREFIX.length()));
                }
                output.append(line).append('\n');
            }
        } catch (IOException e) {
            throw new AssertionError("Cannot read the parent JVM's output", e);
        }
        throw new AssertionError("The parent JVM exited without starting the server. Its output:\n" + output);
    }

    private static boolean completesWithin(CompletableFuture<?> future, long seconds) throws Exception {
        try {
            future.get(seconds, TimeUnit.SECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        }
    }
}
