package io.hbasesessions.benchmarks.scale;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;

/**
 * A table's files under the standalone server's {@code hbase.rootdir}, read directly: bytes on disk (every file
 * of the table's directory: HFiles and the regions' own small files; the WAL and files a compaction moved to the
 * archive are not counted) and store files per store.
 */
public final class TableFiles {

    private final Path hbaseRoot;

    public TableFiles(Path hbaseRoot) {
        this.hbaseRoot = hbaseRoot;
    }

    public long bytes(TableName table) {
        try (Stream<Path> files = Files.walk(directory(table))) {
            return files.filter(Files::isRegularFile).mapToLong(TableFiles::size).sum();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot size " + directory(table), e);
        }
    }

    /**
     * Bytes of the table's files in the archive: compacted files the region servers have discharged, which the
     * master's cleaner deletes after {@code hbase.master.hfilecleaner.ttl} (5 minutes by default).
     */
    public long archivedBytes(TableName table) {
        Path archive = hbaseRoot.resolve("archive").resolve("data").resolve(table.getNamespaceAsString())
                .resolve(table.getQualifierAsString());
        if (!Files.isDirectory(archive)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(archive)) {
            return files.filter(Files::isRegularFile).mapToLong(TableFiles::size).sum();
        } catch (IOException | UncheckedIOException e) {
            return 0; // deleted by the cleaner while we walked
        }
    }

    /** HFiles of the table, all its regions and families. */
    public int storeFiles(TableName table) {
        try (Stream<Path> files = storeFileStream(table)) {
            return (int) files.count();
        }
    }

    /**
     * Starts a major compaction and returns the table's bytes once it is done, without waiting for the compacted
     * files to leave the store directories (the region server moves them to the archive every
     * {@code hbase.hfile.compaction.discharger.interval}, 2 minutes by default): a major compaction writes one new
     * file per store and leaves the others to be discharged. Nothing may write the table meanwhile.
     */
    public long majorCompactedBytes(Admin admin, TableName table, Duration limit) throws IOException, InterruptedException {
        java.util.Set<Path> before = storeFileSet(table);
        long stores = before.stream().map(Path::getParent).distinct().count();
        admin.majorCompact(table);
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            java.util.Set<Path> written = storeFileSet(table);
            written.removeAll(before);
            boolean done = written.stream().map(Path::getParent).distinct().count() >= stores;
            if (done && admin.getCompactionState(table) == CompactionState.NONE) {
                return written.stream().mapToLong(TableFiles::size).sum() + bytes(table) - storeFileBytes(table);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The major compaction of " + table + " did not end within " + limit);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private java.util.Set<Path> storeFileSet(TableName table) {
        try (Stream<Path> files = storeFileStream(table)) {
            return files.collect(Collectors.toCollection(java.util.HashSet::new));
        }
    }

    private long storeFileBytes(TableName table) {
        try (Stream<Path> files = storeFileStream(table)) {
            return files.mapToLong(TableFiles::size).sum();
        }
    }

    /**
     * HFiles sit in {@code <table>/<region>/<family>/}; the region's own files (.regioninfo) one level up, and its
     * {@code recovered.edits/<seqid>.seqid} marker beside the families.
     */
    private Stream<Path> storeFileStream(TableName table) {
        Path directory = directory(table);
        try {
            return Files.walk(directory, 3).filter(Files::isRegularFile)
                    .filter(file -> !file.getFileName().toString().startsWith("."))
                    .filter(file -> directory.relativize(file).getNameCount() == 3)
                    .filter(file -> !file.getParent().getFileName().toString().equals("recovered.edits"))
                    .toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + directory, e);
        } catch (UncheckedIOException e) {
            return Stream.empty(); // a file moved to the archive by a compaction while we walked
        }
    }

    private Path directory(TableName table) {
        return hbaseRoot.resolve("data").resolve(table.getNamespaceAsString()).resolve(table.getQualifierAsString());
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0; // moved to the archive by a compaction while we walked
        }
    }
}
