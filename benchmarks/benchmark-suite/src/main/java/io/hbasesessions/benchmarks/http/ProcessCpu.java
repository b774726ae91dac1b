package io.hbasesessions.benchmarks.http;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

/**
 * The CPU time (user + system) processes have used, from Linux's {@code /proc/<pid>/stat}: what a row's
 * node and its store's server spent, divided by the requests sent, gives CPU per request on each side.
 */
public final class ProcessCpu {

    /** {@code USER_HZ}: the unit of /proc's CPU times, 100 on every Linux architecture the JDK runs on. */
    private static final long TICKS_PER_SECOND = 100;
    private static final int UTIME_AFTER_COMMAND = 11;
    private static final int STIME_AFTER_COMMAND = 12;

    private ProcessCpu() {
    }

    /** The CPU time process {@code pid} has used, all its threads; zero once it is gone. */
    public static Duration of(long pid) {
        return read(Path.of("/proc", Long.toString(pid), "stat"));
    }

    /** The CPU time of every running process whose command name is {@code command} (a server and its workers). */
    static Duration ofCommand(String command) {
        try (Stream<Path> processes = Files.list(Path.of("/proc"))) {
            List<Path> stats = processes.filter(dir -> dir.getFileName().toString().chars().allMatch(Character::isDigit))
                    .map(dir -> dir.resolve("stat")).toList();
            return stats.stream().filter(stat -> command.equals(commandOf(stat))).map(ProcessCpu::read)
                    .reduce(Duration.ZERO, Duration::plus);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String commandOf(Path stat) {
        String line = line(stat);
        return line.isEmpty() ? "" : line.substring(line.indexOf('(') + 1, line.lastIndexOf(')'));
    }

    private static Duration read(Path stat) {
        String line = line(stat);
        if (line.isEmpty()) {
            return Duration.ZERO;
        }
        // The command name, in parentheses, may hold spaces: fields are counted after its closing one.
        String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[UTIME_AFTER_COMMAND]) + Long.parseLong(fields[STIME_AFTER_COMMAND]);
        return Duration.ofMillis(ticks * 1000 / TICKS_PER_SECOND);
    }

    private static String line(Path stat) {
        try {
            return Files.readString(stat);
        } catch (NoSuchFileException e) {
            return "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
