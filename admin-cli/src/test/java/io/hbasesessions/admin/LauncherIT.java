package io.hbasesessions.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The packaged jar, run by the bash launcher in a JVM of its own: it starts, parses, answers with the
 * documented exit codes, prints nothing but its answer, and exits although the HBase client still retries.
 */
class LauncherIT {

    private static final Path SCRIPT = Path.of(System.getProperty("launcher.script", "hbase-sessions"));

    record Result(int exitCode, String out, String err, long millis) {
    }

    @Test
    void helpListsTheCommandsAndExitCodes() throws Exception {
        Result help = launch("--help");
        assertEquals(0, help.exitCode(), help.err());
        for (String command : List.of("create-tables", "verify", "stats", "inspect", "revoke", "sweep-index", "health")) {
            assertTrue(help.out().contains(command), help.out());
        }
        assertTrue(help.out().contains("Exit codes (every command):"), help.out());
    }

    @Test
    void aDryRunPrintsTheTablesWithoutHBaseAndWithoutNoiseOnStderr() throws Exception {
        Result dryRun = launch("create-tables", "--dry-run", "--zookeeper-quorum", "127.0.0.1:1", "--json");
        assertEquals(0, dryRun.exitCode(), dryRun.err());
        assertTrue(dryRun.out().startsWith("{\"dryRun\":true,\"regions\":16,"), dryRun.out());
        assertEquals("", dryRun.err(), "no log lines or stack traces beside the answer");
    }

    @Test
    void healthWithHBaseDownExits1WithinTheTimeoutAndTheJvmEnds() throws Exception {
        Result down = launch("health", "--zookeeper-quorum", "127.0.0.1:1", "--operation-timeout-millis", "1000");
        System.out.println("launcher: health with HBase down exited after " + down.millis() + " ms (JVM start included)");
        assertEquals(1, down.exitCode(), down.out() + down.err());
        assertTrue(down.out().contains("healthy: false"), down.out());
        assertTrue(down.millis() < 15_000, down.millis() + " ms");
    }

    @Test
    void aSettingThatIsNotValidExits2() throws Exception {
        Result invalid = launch("verify", "--zookeeper-quorum", "127.0.0.1:1", "--write-durability", "skip_wal");
        assertEquals(2, invalid.exitCode(), invalid.err());
        assertTrue(invalid.err().contains("SKIP_WAL is not allowed"), invalid.err());
    }

    private static Result launch(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        long start = System.nanoTime();
        Process process = builder.start();
        process.getOutputStream().close();
        // Small outputs: reading both after the exit cannot fill a pipe.
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("hbase-sessions " + String.join(" ", args) + " did not exit within 60 s");
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        return new Result(process.exitValue(), new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8), millis);
    }
}
