package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What tests check about server processes. */
final class ServerProcesses {

    private ServerProcesses() {
    }

    /** The process is gone, and no process started by this JVM still runs on the data directory. */
    static void assertNoServerLeft(long pid, Path dataDirectory) {
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "server process " + pid + " still runs");
        List<Long> leftOver = ProcessHandle.current().descendants()
                .filter(process -> process.info().commandLine().orElse("").contains(dataDirectory.toAbsolutePath().toString()))
                .map(ProcessHandle::pid)
                .toList();
        assertEquals(List.of(), leftOver, "processes still running on " + dataDirectory);
    }

    /** The resident memory of a process, from /proc/PID/status. */
    static long residentKibibytes(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("VmRSS:"))
                .map(line -> Long.parseLong(line.replaceAll("[^0-9]", "")))
                .findFirst()
                .orElseThrow();
    }
}
