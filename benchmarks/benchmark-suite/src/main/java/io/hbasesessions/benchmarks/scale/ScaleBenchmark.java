package io.hbasesessions.benchmarks.scale;

import io.hbasesessions.benchmarks.Measurement;
import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.TimedLoop;
import io.hbasesessions.benchmarks.store.Sessions;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * Part 4 (store side): many sessions created with 8 threads, then loaded at random; the table's bytes
 * on disk per session after a flush and after a major compaction.
 */
public final class ScaleBenchmark {

    private static final int THREADS = 8;
    private static final Duration CREATION_TIME_LIMIT = Duration.ofMinutes(15);
    private static final Duration COMPACTION_TIME_LIMIT = Duration.ofMinutes(10);
    /** Bounds the random loads in count as well as time. */
    private static final long MAX_LOADS_PER_THREAD = 100_000_000;

    private final StoreSettings settings;
    private final Configuration client;
    private final TableFiles files;

    /** {@code hbaseRoot} is the server's {@code hbase.rootdir}, read directly to size the table's files. */
    public ScaleBenchmark(StoreSettings settings, Configuration client, Path hbaseRoot) {
        this.settings = settings;
        this.client = client;
        this.files = new TableFiles(hbaseRoot);
    }

    public void run(Report report, int sessions, Duration loadTime) throws Exception {
        report.heading("4a. Scale: " + Report.count(sessions) + " sessions through the store");
        String[] ids = new String[sessions];
        Measurement creation;
        Measurement loads;
        try (SessionStore store = SessionStores.open(settings, Sessions.WEBAPP)) {
            int perThread = sessions / THREADS;
            creation = new TimedLoop(Duration.ZERO, CREATION_TIME_LIMIT, perThread).run(THREADS, (t, i) -> {
                int index = t * perThread + (int) i;
                ids[index] = Sessions.create(store, index).record().id();
            });
            loads = new TimedLoop(Duration.ofSeconds(1), loadTime, MAX_LOADS_PER_THREAD).run(THREADS, (t, i) -> {
                String id = ids[ThreadLocalRandom.current().nextInt(perThread * THREADS)];
                if (id != null && store.load(id).isEmpty()) {
                    throw new IllegalStateException("A created session was not found");
                }
            });
            if (creation.operations() < (long) perThread * THREADS) {
                report.note("Creation stopped at the time limit after " + creation.operations() + " sessions.");
            }
        }
        long created = creation.operations();
        TableName table = TableName.valueOf(settings.get(Setting.TABLE));
        long afterFlush;
        long afterCompaction;
        try (Connection connection = ConnectionFactory.createConnection(client); Admin admin = connection.getAdmin()) {
            admin.flush(table);
            afterFlush = files.bytes(table);
            // The new files, without waiting for the compacted ones to leave (the discharger runs every 2 minutes).
            afterCompaction = files.majorCompactedBytes(admin, table, COMPACTION_TIME_LIMIT);
        }
        report.table(List.of("measure", "value"), List.of(
                Report.cells("sessions created (8 threads)", Report.count(created)),
                Report.cells("creation rate, sessions/s", Report.number(creation.perSecond())),
                Report.cells("creation p50 / p99 ms", Report.number(creation.p50Millis()) + " / "
                        + Report.number(creation.p99Millis())),
                Report.cells("random loads/s (8 threads)", Report.number(loads.perSecond())),
                Report.cells("load p50 / p99 ms", Report.number(loads.p50Millis()) + " / "
                        + Report.number(loads.p99Millis())),
                Report.cells("bytes on disk per session after flush", Report.number((double) afterFlush / created)),
                Report.cells("bytes on disk per session after major compaction",
                        Report.number((double) afterCompaction / created))));
        report.note(String.format("Targets: creation at least 10,000 sessions/s: %s (%.2fx); store loads at 8 threads "
                + "at least 5,000/s with p99 under 5 ms: %s. Bytes on disk: the table's files under hbase.rootdir "
                + "(HFiles, FAST_DIFF encoding, no compression), the WAL not counted.",
                creation.perSecond() >= 10_000 ? "met" : "missed", creation.perSecond() / 10_000,
                loads.perSecond() >= 5_000 && loads.p99Millis() < 5 ? "met" : "missed"));
    }
}
