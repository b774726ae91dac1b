package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Each bad input gives one error that says what to do, and leaves no server process behind. */
@ExtendWith(HBaseExtension.class)
class EmbeddedHBaseFailureTest {

    private static final Path JDK_25 = Path.of("/usr/lib/jvm/temurin-25-jdk-amd64");

    @TempDir
    Path dataDirectory;

    @Test
    void zookeeperPortInUseIsRefusedBeforeLaunching() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            EmbeddedHBase hbase = builder().zookeeperPort(taken.getLocalPort()).build();

            EmbeddedHBaseException error = assertThrows(EmbeddedHBaseException.class, hbase::start);

            assertEquals("ZooKeeper port " + taken.getLocalPort() + " is already in use: stop the process that listens "
                    + "on it, or choose another ZooKeeper port (0 picks a free one)", error.getMessage());
            assertNeverLaunched(hbase);
        }
    }

    @Test
    void dataDirectoryThatCannotBeCreatedIsRefused() throws IOException {
        Path regularFile = Files.createFile(dataDirectory.resolve("a-file"));
        EmbeddedHBase hbase = EmbeddedHBase.builder().dataDirectory(regularFile.resolve("data")).build();

        EmbeddedHBaseException error = assertThrows(EmbeddedHBaseException.class, hbase::start);

        assertTrue(error.getMessage().startsWith("Cannot create or write the data directory " + regularFile.resolve("data")),
                error.getMessage());
        assertTrue(error.getMessage().endsWith("choose a directory you can write to"), error.getMessage());
        assertNeverLaunched(hbase);
    }

    @Test
    void javaThatHBaseCannotRunOnIsRefused() throws IOException {
        Path fakeJavaHome = Files.createDirectory(dataDirectory.resolve("jdk-25"));
        Files.writeString(fakeJavaHome.resolve("release"), "JAVA_VERSION=\"25.0.1\"\n");
        EmbeddedHBase hbase = builder().javaHome(fakeJavaHome).build();

        EmbeddedHBaseException error = assertThrows(EmbeddedHBaseException.class, hbase::start);

        assertEquals("HBase 2.6 cannot run on Java 25.0.1 (" + fakeJavaHome + "): set JAVA_HOME to a JDK 17 "
                + "(Java 17 to 21 are accepted)", error.getMessage());
        assertNeverLaunched(hbase);
    }

    @Test
    void installedJdk25IsRefused() {
        assumeTrue(Files.isDirectory(JDK_25), "no JDK 25 installed at " + JDK_25);
        EmbeddedHBase hbase = builder().javaHome(JDK_25).build();

        EmbeddedHBaseException error = assertThrows(EmbeddedHBaseException.class, hbase::start);

        assertTrue(error.getMessage().startsWith("HBase 2.6 cannot run on Java 25"), error.getMessage());
        assertNeverLaunched(hbase);
    }

    @Test
    void serverNotUpWithinStartTimeoutIsKilled() {
        EmbeddedHBase hbase = builder().startTimeout(Duration.ofMillis(1)).build();

        EmbeddedHBaseException error = assertThrows(EmbeddedHBaseException.class, hbase::start);

        assertTrue(error.getMessage().startsWith("HBase did not come up within PT0.001S: allow a longer startTimeout, "
                + "or see the last lines of " + hbase.logFile() + " below"), error.getMessage());
        assertNotEquals(-1, hbase.pid(), "the server was never launched");
        assertFalse(hbase.isRunning());
        ServerProcesses.assertNoServerLeft(hbase.pid(), dataDirectory);
    }

    @Test
    void dataDirectoryOfARunningServerIsRefused(EmbeddedHBase running) {
        EmbeddedHBase second = EmbeddedHBase.builder().dataDirectory(running.dataDirectory()).build();

        EmbeddedHBaseException error = assertThrows(EmbeddedHBaseException.class, second::start);

        assertEquals("The data directory " + running.dataDirectory() + " is already used by another running embedded "
                + "HBase: stop that one first, or choose another data directory", error.getMessage());
        assertNeverLaunched(second);
        assertTrue(running.isRunning());
    }

    private EmbeddedHBase.Builder builder() {
        return EmbeddedHBase.builder().dataDirectory(dataDirectory);
    }

    private static void assertNeverLaunched(EmbeddedHBase hbase) {
        assertEquals(-1, hbase.pid(), "a server process was launched");
        assertFalse(hbase.isRunning());
    }
}
