package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build's one HBase: a later test JVM of the same build finds the server an earlier one started, no
 * JVM's end stops it, and it ends with the process that owns it (Maven; here a stand-in process).
 */
class BuildHBaseTest {

    private static final long SERVER_EXIT_TIMEOUT_SECONDS = 15;

    @TempDir
    Path directory;

    @Test
    void theOwnersCallersShareOneServerThatEndsWithTheOwnerAndTheNextBuildStartsAfresh() throws Exception {
        Process owner = standInForMaven();
        Process nextOwner = standInForMaven();
        try {
            EmbeddedHBase started = BuildHBase.findOrStart(directory, owner.toHandle());
            EmbeddedHBase found = BuildHBase.findOrStart(directory, owner.toHandle());

            assertEquals(started.pid(), found.pid(), "a second server was started for the same owner");
            assertEquals(started.zookeeperPort(), found.zookeeperPort());
            assertEquals(1, startsIn(started.logFile()), "the server's log shows more than one start");
            found.stop();
            assertTrue(found.isRunning(), "a caller that found the server stopped it");

            owner.destroyForcibly().waitFor();
            assertTrue(exitsWithin(started.pid()), "the server " + started.pid() + " still runs "
                    + SERVER_EXIT_TIMEOUT_SECONDS + " s after its owner ended");
            assertFalse(found.isRunning());

            EmbeddedHBase next = BuildHBase.findOrStart(directory, nextOwner.toHandle());
            assertNotEquals(started.pid(), next.pid());
            assertTrue(next.isRunning());
            assertEquals(List.of(next.dataDirectory().getFileName()), dataDirectories(), "the ended build's data is left");
            nextOwner.destroyForcibly().waitFor();
            assertTrue(exitsWithin(next.pid()), "the next build's server still runs after its owner ended");
        } finally {
            owner.destroyForcibly();
            nextOwner.destroyForcibly();
        }
    }

    private static Process standInForMaven() throws IOException {
        return new ProcessBuilder("sleep", "600").start();
    }

    private static boolean exitsWithin(long pid) throws Exception {
        Optional<ProcessHandle> server = ProcessHandle.of(pid);
        try {
            if (server.isPresent()) {
                server.get().onExit().get(SERVER_EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            return true;
        } catch (TimeoutException e) {
            return false;
        }
    }

    private static long startsIn(Path logFile) throws IOException {
        try (Stream<String> lines = Files.lines(logFile)) {
            return lines.filter(line -> line.contains("embedded-hbase starts HBase")).count();
        }
    }

    private List<Path> dataDirectories() throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(Files::isDirectory).map(Path::getFileName).toList();
        }
    }
}
