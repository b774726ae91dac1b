package io.hbasesessions.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One child JVM of the launcher (a standalone HBase, a master, a region server or ZooKeeper), run under
 * {@link ParentWatchdog} with its output appended to its own log file. Its stdin stays a pipe from this
 * JVM: the watchdog ends the child when the pipe closes, which the operating system does when this JVM
 * dies, even by {@code kill -9}.
 */
final class ServerJvm {

    /** How long a process that got SIGKILL may take to disappear. */
    private static final Duration KILLED_EXIT_WAIT = Duration.ofSeconds(10);

    private final Process process;
    private final Path logFile;

    private ServerJvm(Process process, Path logFile) {
        this.process = process;
        this.logFile = logFile;
    }

    /**
     * Marks the start in {@code logFile} with {@code settings}, then launches {@code javaCommand} in the data
     * directory, under {@code taskset -c} if given {@code cpuList}: taskset sets its own affinity and execs the
     * JVM, so the pid is the JVM's and every thread it starts inherits the CPUs.
     */
    static ServerJvm launch(List<String> javaCommand, Optional<String> cpuList, DataDirectory directory, Path logFile,
            String settings) {
        directory.markStartInLog(logFile, "java=" + javaCommand.get(0) + cpuList.map(cpus -> " cpus=" + cpus).orElse("")
                + " " + settings);
        List<String> command = new ArrayList<>();
        cpuList.ifPresent(cpus -> command.addAll(List.of("taskset", "-c", cpus)));
        command.addAll(javaCommand);
        try {
            Process process = new ProcessBuilder(command)
                    .directory(directory.root().toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .start();
            return new ServerJvm(process, logFile);
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot launch " + command.get(0) + " (" + e + "): " + (cpuList.isPresent()
                    ? "install taskset (util-linux) or leave cpuAffinity empty" : "set JAVA_HOME to a JDK 17"), e);
        }
    }

    Process process() {
        return process;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path logFile() {
        return logFile;
    }

    /** The exit code of a process that has exited or is exiting; -1 if interrupted while waiting. */
    int exitCode() {
        try {
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Waits for the process to exit by {@code deadline}, kills it if it has not, then closes its stdin. */
    void awaitExitOrKill(Instant deadline) {
        if (!awaitExit(Duration.between(Instant.now(), deadline))) {
            kill();
        }
        closeStdin();
    }

    /** SIGKILL, as a crash would end it: no shutdown hook of the child runs. */
    void kill() {
        process.destroyForcibly();
        awaitExit(KILLED_EXIT_WAIT);
        closeStdin();
    }

    /**
     * Sends {@code signal} ({@code STOP}, {@code CONT}) with the system's {@code kill}: {@link ProcessHandle}
     * sends only TERM and KILL.
     */
    void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).redirectErrorStream(true).start();
            String output = new String(kill.getInputStream().readAllBytes()).trim();
            if (kill.waitFor() != 0) {
                throw new EmbeddedHBaseException("kill -" + signal + " " + pid() + " failed: " + output);
            }
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot run kill -" + signal + " " + pid() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedHBaseException("Interrupted while sending SIG" + signal + " to " + pid(), e);
        }
    }

    /**
     * SIGTERM: the child's shutdown hooks run. Through the handle, because {@code Process.destroy()} also
     * closes stdin, which the watchdog would report as a dead parent.
     */
    void terminate() {
        process.toHandle().destroy();
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(Math.max(0, timeout.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            return false;
        }
    }

    /** Closed only once the child is gone: an earlier close would make the watchdog end it. */
    private void closeStdin() {
        try {
            process.getOutputStream().close();
        } catch (IOException ignored) {
            // The pipe is gone with the process.
        }
    }
}
