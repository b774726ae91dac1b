package io.hbasesessions.embedded;

import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;

/**
 * The layout of an embedded HBase's data directory, kept between runs:
 * {@code hbase/} (HBase's root directory), {@code zk/}, {@code tmp/}, {@code conf/log4j.properties},
 * {@code logs/hbase.log} (the standalone server's output, appended at every start; a cluster writes one
 * {@code logs/<process>.log} per process) and {@code embedded-hbase.lock}.
 */
final class DataDirectory {

    private static final String LOGGING_TEMPLATE = "server-log4j.properties";
    private static final String START_MARK = "==== ";

    private final Path root;

    DataDirectory(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    Path root() {
        return root;
    }

    Path hbaseRoot() {
        return root.resolve("hbase");
    }

    Path zookeeper() {
        return root.resolve("zk");
    }

    /** HBase's {@code hbase.tmp.dir}; its default is shared by every HBase of the user. */
    Path tmp() {
        return root.resolve("tmp");
    }

    Path configuration() {
        return root.resolve("conf");
    }

    Path logFile() {
        return logFile("hbase");
    }

    /** The output of one process of a cluster: {@code logs/<process>.log}. */
    Path logFile(String process) {
        return root.resolve("logs").resolve(process + ".log");
    }

    /** One process's own {@code hbase.tmp.dir}, so processes of a cluster do not share local files. */
    Path tmp(String process) {
        return tmp().resolve(process);
    }

    Path lockFile() {
        return root.resolve("embedded-hbase.lock");
    }

    void createDirectories() {
        try {
            for (Path directory : List.of(hbaseRoot(), zookeeper(), tmp(), configuration(), logFile().getParent())) {
                Files.createDirectories(directory);
            }
        } catch (IOException e) {
            throw notWritable(e);
        }
    }

    /**
     * Locks the directory against a second embedded HBase, in this JVM or another. The lock is held
     * until its channel is closed; the operating system releases it when this JVM dies.
     */
    FileLock lock() {
        FileChannel channel = openLockFile();
        try {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                return lock;
            }
        } catch (OverlappingFileLockException heldInThisJvm) {
            // Another EmbeddedHBase of this JVM runs on the directory: the same answer as another JVM.
        } catch (IOException e) {
            closeQuietly(channel);
            throw notWritable(e);
        }
        closeQuietly(channel);
        throw new EmbeddedHBaseException("The data directory " + root + " is already used by another running "
                + "embedded HBase: stop that one first, or choose another data directory");
    }

    /** Rewritten at every start so a newer version of this module brings its own settings. */
    void writeLoggingConfiguration() {
        try (InputStream template = DataDirectory.class.getResourceAsStream(LOGGING_TEMPLATE)) {
            Files.copy(template, configuration().resolve("log4j.properties"), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw notWritable(e);
        }
    }

    /** Writes {@code conf/<name>}, replacing an earlier one, and returns its path. */
    Path writeConfigurationFile(String name, String content) {
        Path file = configuration().resolve(name);
        try {
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return file;
        } catch (IOException e) {
            throw notWritable(e);
        }
    }

    /** Separates the output of this start from earlier ones; {@link #logTail(Path, int)} reads from here. */
    void markStartInLog(Path logFile, String settings) {
        String line = START_MARK + Instant.now() + " embedded-hbase starts HBase: " + settings + System.lineSeparator();
        try {
            Files.writeString(logFile, line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw notWritable(e);
        }
    }

    /** The last lines a process wrote to {@code logFile} since its latest start, or a note saying why there are none. */
    static String logTail(Path logFile, int lines) {
        try {
            List<String> all = new String(Files.readAllBytes(logFile), StandardCharsets.UTF_8).lines().toList();
            int latestStart = 0;
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i).startsWith(START_MARK)) {
                    latestStart = i + 1;
                }
            }
            List<String> output = all.subList(Math.max(latestStart, all.size() - lines), all.size());
            return output.isEmpty() ? "(HBase wrote nothing)" : String.join("\n", output);
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    /** Releases a lock taken by {@link #lock()}; null is accepted and does nothing. */
    static void release(FileLock lock) {
        if (lock == null) {
            return;
        }
        try {
            lock.channel().close();
        } catch (IOException ignored) {
            // The operating system releases the lock when this JVM exits.
        }
    }

    private FileChannel openLockFile() {
        try {
            return FileChannel.open(lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw notWritable(e);
        }
    }

    private EmbeddedHBaseException notWritable(IOException cause) {
        return new EmbeddedHBaseException("Cannot create or write the data directory " + root + " (" + cause
                + "): choose a directory you can write to", cause);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // Nothing is held through a channel that failed to lock.
        }
    }
}
