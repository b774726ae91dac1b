package io.hbasesessions.benchmarks.sizing;

import io.hbasesessions.benchmarks.Measurement;
import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.Sizes;
import io.hbasesessions.benchmarks.TimedLoop;
import io.hbasesessions.benchmarks.http.ProcessCpu;
import io.hbasesessions.benchmarks.scale.TableFiles;
import io.hbasesessions.benchmarks.store.Sessions;
import io.hbasesessions.store.SessionPrincipal;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.TableCompression;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

/**
 * Part {@code sizing} (issue #17): what a session costs the HBase cluster in disk and CPU. (a) Bytes on disk per
 * session and server CPU per write for each {@code compression} the server can load, as ratios to {@code none};
 * (b) disk growth while every session is rewritten every few seconds, through flushes and compactions, as
 * multiples of the live data; (c) the write rate one region server sustains into one region and into several;
 * (d) the delete markers that "log out everywhere" leaves, and what a major compaction removes. All on the
 * suite's standalone HBase, every loop bounded in count and time.
 */
public final class SizingBenchmark {

    private static final int THREADS = 8;
    private static final Duration COMPACTION_LIMIT = Duration.ofMinutes(5);
    private static final Duration IDLE_TIMEOUT = Duration.ofMinutes(30);

    /**
     * How much each step does in each mode; {@code codecWarmUp}: an unreported table first, so that the first codec's row
     * does not pay the server's JIT.
     */
    public record Plan(List<TableCompression> codecs, boolean codecWarmUp, int codecSessions, int rewriteSessions,
            Duration rewriteEvery, Duration rewriteRun, long flushSizeBytes, Duration sampleEvery, Duration rateRun,
            int rateRegions, int rateRounds, int rateSessions, int users, int sessionsPerUser) {

        public static Plan of(Sizes sizes) {
            return switch (sizes) {
                // The build's smoke run: one codec that works, one that does not (its section must not rot); figures
                // it does not check need no warm-up.
                case SMOKE -> new Plan(List.of(TableCompression.NONE, TableCompression.GZ, TableCompression.ZSTD), false,
                        96, 96, Duration.ofSeconds(1), Duration.ofSeconds(1), 1L << 20, Duration.ofMillis(500),
                        Duration.ofMillis(300), 2, 1, 80, 8, 2);
                case QUICK -> new Plan(List.of(TableCompression.values()), true, 5_000, 3_000, Duration.ofSeconds(3),
                        Duration.ofSeconds(40), 1L << 20, Duration.ofSeconds(1), Duration.ofSeconds(4), 8, 1, 1_600, 200, 3);
                case FULL -> new Plan(List.of(TableCompression.values()), true, 10_000, 6_000, Duration.ofSeconds(5),
                        Duration.ofSeconds(150), 2L << 20, Duration.ofSeconds(1), Duration.ofSeconds(15), 8, 2, 1_600,
                        2_000, 3);
            };
        }
    }

    private final UnaryOperator<StoreSettings.Builder> base;
    private final Configuration client;
    private final TableFiles files;
    private final LongSupplier serverPid;
    private final Path output;

    /**
     * @param base the store settings every table here starts from (quorum); each step names its own table
     * @param output where {@code sizing-rewrite.csv} is written, and the gnuplot arguments with which run.sh draws
     *     {@code sizing-rewrite.png} from it ({@code sizing-rewrite.chart})
     */
    public SizingBenchmark(UnaryOperator<StoreSettings.Builder> base, Configuration client, Path hbaseRoot,
            LongSupplier serverPid, Path output) {
        this.base = base;
        this.client = client;
        this.files = new TableFiles(hbaseRoot);
        this.serverPid = serverPid;
        this.output = output;
    }

    public void run(Report report, Plan plan) throws Exception {
        try (Connection connection = ConnectionFactory.createConnection(client); Admin admin = connection.getAdmin()) {
            codecs(report, plan, admin);
            rewrites(report, plan, admin);
            writeRate(report, plan);
            tombstones(report, plan, admin, connection);
        }
    }

    private StoreSettings settings(String table, int regions, TableCompression compression) {
        return base.apply(StoreSettings.builder()).set(Setting.TABLE, table).set(Setting.INDEX_TABLE, table + "_index")
                .set(Setting.KEY_SCOPE, "/" + table).set(Setting.REGIONS, regions).set(Setting.COMPRESSION, compression)
                // This part measures bytes and CPU, not latency: a loaded machine's slow call must not end the run.
                .set(Setting.OPERATION_TIMEOUT_MILLIS, 60_000L).build();
    }

    // ---- (a) codecs ---------------------------------------------------------------------------------------------

    private record CodecRun(TableCompression codec, String failure, long writes, double writeSeconds,
            long writeCpuMillis, long compactCpuMillis, long bytesAfterFlush, long bytesAfterCompaction) {
    }

    private void codecs(Report report, Plan plan, Admin admin) throws Exception {
        report.heading("7a. Sizing: bytes on disk and server CPU per write, by compression");
        // Unreported: the first table of a fresh server pays its JIT warm-up (2-4x the CPU per write of later rows).
        if (plan.codecWarmUp()) {
            codec(TableCompression.NONE, plan.codecSessions(), admin, "bench_sizing_warmup");
        }
        List<CodecRun> runs = new ArrayList<>();
        for (TableCompression codec : plan.codecs()) {
            runs.add(codec(codec, plan.codecSessions(), admin, "bench_sizing_" + codec.name().toLowerCase(Locale.ROOT)));
        }
        // Again at the end: how much the machine drifted between the first row and the last.
        if (plan.codecs().size() == TableCompression.values().length) {
            runs.add(codec(TableCompression.NONE, plan.codecSessions(), admin, "bench_sizing_none_again"));
        }
        CodecRun none = runs.get(0);
        List<List<String>> rows = new ArrayList<>();
        for (CodecRun run : runs) {
            String name = "`" + run.codec().name().toLowerCase(Locale.ROOT) + "`" + (run != none
                    && run.codec() == TableCompression.NONE ? " (again, last)" : "");
            if (run.failure() != null) {
                rows.add(Report.cells(name, "not loadable here: " + run.failure(), "", "", "", "", "", "", ""));
                continue;
            }
            double perSessionFlush = (double) run.bytesAfterFlush() / plan.codecSessions();
            double perSession = (double) run.bytesAfterCompaction() / plan.codecSessions();
            double cpuPerWrite = 1000.0 * (run.writeCpuMillis() + run.compactCpuMillis()) / run.writes();
            double nonePerWrite = 1000.0 * (none.writeCpuMillis() + none.compactCpuMillis()) / none.writes();
            rows.add(Report.cells(name, Report.number(perSessionFlush), Report.number(perSession),
                    Report.ratio(perSession, (double) none.bytesAfterCompaction() / plan.codecSessions()),
                    Report.number(run.writes() / run.writeSeconds()), Report.count(run.writeCpuMillis()),
                    Report.count(run.compactCpuMillis()), Report.number(cpuPerWrite), Report.ratio(cpuPerWrite, nonePerWrite)));
        }
        report.table(List.of("compression", "bytes/session after flush", "after major compaction", "vs none",
                "writes/s (8 threads)", "server CPU ms: writes", "flush + compaction", "server CPU µs per write",
                "vs none"), rows);
        report.note(Report.count(plan.codecSessions()) + " sessions (the benchmark session, about 1.1 KB of state) "
                + "created and then each saved once with a change (2 SYNC_WAL CheckAndMutates per session), 8 threads, "
                + "into a 1-region table per codec; then a flush and a major compaction. Bytes: the table's files under "
                + "hbase.rootdir. CPU: the HBase server process (user + system, /proc), over the writes and over the "
                + "flush and compaction (where HBase compresses: blocks are compressed when HFiles are written, the "
                + "WAL and the memstore are not); per write = both, divided by the writes. A codec the server cannot "
                + "load is refused by the store at start (the master's sanity check), as shown." + (plan.codecWarmUp()
                        ? " Before these rows an unreported warm-up table of the same size, so that the first row does not "
                                + "pay the server's JIT." : ""));
    }

    private CodecRun codec(TableCompression codec, int sessions, Admin admin, String tableName) throws Exception {
        StoreSettings settings = settings(tableName, 1, codec);
        TableName table = TableName.valueOf(tableName);
        SessionStore store;
        try {
            store = SessionStores.open(settings, Sessions.WEBAPP);
        } catch (StoreConfigurationException e) {
            return new CodecRun(codec, serverReason(e.getMessage()), 0, 0, 0, 0, 0, 0);
        }
        long cpuBefore = serverCpuMillis();
        Measurement writes;
        try (store) {
            StoredSession[] created = new StoredSession[sessions];
            int perThread = sessions / THREADS;
            writes = new TimedLoop(Duration.ZERO, Duration.ofMinutes(5), 2L * perThread).run(THREADS, (t, i) -> {
                int index = t * perThread + (int) (i % perThread);
                if (i < perThread) {
                    created[index] = Sessions.create(store, index);
                } else {
                    StoredSession session = created[index];
                    store.save(session, Sessions.change(session, i));
                }
            });
        }
        long cpuAfterWrites = serverCpuMillis();
        admin.flush(table);
        long afterFlush = files.bytes(table);
        long afterCompaction = files.majorCompactedBytes(admin, table, COMPACTION_LIMIT);
        long cpuAfterCompaction = serverCpuMillis();
        dropTables(admin, settings);
        return new CodecRun(codec, null, writes.operations(), writes.seconds(), cpuAfterWrites - cpuBefore,
                cpuAfterCompaction - cpuAfterWrites, afterFlush, afterCompaction);
    }

    /** What the master said about the codec, without the store's advice and HBase's exception chain. */
    private static String serverReason(String message) {
        String first = message.lines().findFirst().orElse("");
        int end = first.indexOf(" Set hbase.table.sanity.checks");
        String said = end > 0 ? first.substring(0, end) : first;
        int cause = Math.max(said.lastIndexOf("Exception: "), said.lastIndexOf("Error: "));
        String reason = cause >= 0 ? said.substring(said.lastIndexOf(' ', cause) + 1) : said;
        return reason.replaceFirst("^java\\.lang\\.", "").replace('|', '/');
    }

    // ---- (b) rewrites --------------------------------------------------------------------------------------------

    private void rewrites(Report report, Plan plan, Admin admin) throws Exception {
        report.heading("7b. Sizing: disk growth while every session is rewritten every "
                + plan.rewriteEvery().toSeconds() + " s");
        String tableName = "bench_sizing_rewrite";
        StoreSettings settings = settings(tableName, 1, TableCompression.NONE);
        TableName table = TableName.valueOf(tableName);
        Path csv = output.resolve("sizing-rewrite.csv");
        Files.createDirectories(output);
        List<String> lines = new ArrayList<>(List.of(
                "seconds,store_files,disk_bytes,memstore_bytes,writes,live_store_files,archive_bytes"));
        AtomicLong written = new AtomicLong();
        long maxDisk = 0;
        int maxFiles = 0;
        long maxWithArchive = 0;
        int maxLiveFiles = 0;
        double diskSum = 0;
        int samples = 0;
        long rewriteNanos;
        try (SessionStore store = SessionStores.open(settings, Sessions.WEBAPP)) {
            // A small flush size, so that a bounded run sees flushes and compactions as a big region does (below).
            // HBase's split policy splits a table's first region at twice the flush size: kept at one region.
            admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(table))
                    .setMemStoreFlushSize(plan.flushSizeBytes())
                    .setRegionSplitPolicyClassName("org.apache.hadoop.hbase.regionserver.DisabledRegionSplitPolicy")
                    .build());
            StoredSession[] sessions = new StoredSession[plan.rewriteSessions()];
            int perThread = plan.rewriteSessions() / THREADS;
            new TimedLoop(Duration.ZERO, Duration.ofMinutes(5), perThread).run(THREADS, (t, i) -> {
                sessions[t * perThread + (int) i] = Sessions.create(store, t * perThread + i);
            });
            admin.flush(table);
            AtomicBoolean stop = new AtomicBoolean();
            long start = System.nanoTime();
            Thread[] writers = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                writers[t] = new Thread(() -> rewriteLoop(store, sessions, thread, perThread, plan.rewriteEvery(), stop,
                        written), "sizing-rewriter-" + t);
                writers[t].start();
            }
            long end = start + plan.rewriteRun().toNanos();
            ServerName server = admin.getRegionServers().iterator().next();
            while (System.nanoTime() < end) {
                TimeUnit.MILLISECONDS.sleep(plan.sampleEvery().toMillis());
                long disk = files.bytes(table);
                int storeFiles = files.storeFiles(table);
                List<RegionMetrics> region = admin.getRegionMetrics(server, table);
                int liveFiles = region.stream().mapToInt(RegionMetrics::getStoreFileCount).sum();
                long archived = files.archivedBytes(table);
                lines.add(String.format(Locale.ROOT, "%.1f,%d,%d,%d,%d,%d,%d", (System.nanoTime() - start) / 1e9,
                        storeFiles, disk, memstoreBytes(region), written.get(), liveFiles, archived));
                maxWithArchive = Math.max(maxWithArchive, disk + archived);
                maxLiveFiles = Math.max(maxLiveFiles, liveFiles);
                maxDisk = Math.max(maxDisk, disk);
                maxFiles = Math.max(maxFiles, storeFiles);
                diskSum += disk;
                samples++;
            }
            stop.set(true);
            for (Thread writer : writers) {
                writer.join(TimeUnit.SECONDS.toMillis(30));
            }
            rewriteNanos = System.nanoTime() - start;
        }
        Files.write(csv, lines);
        admin.flush(table);
        long live = files.majorCompactedBytes(admin, table, COMPACTION_LIMIT);
        dropTables(admin, settings);
        Files.writeString(output.resolve("sizing-rewrite.chart"), "data='" + csv + "'; out='"
                + output.resolve("sizing-rewrite.png") + "'; live=" + live + "\n");
        double seconds = rewriteNanos / 1e9;
        double achievedEvery = plan.rewriteSessions() / (written.get() / seconds);
        report.table(List.of("measure", "value"), List.of(
                Report.cells("sessions, each rewritten every", Report.count(plan.rewriteSessions()) + ", "
                        + plan.rewriteEvery().toSeconds() + " s (achieved: every " + Report.number(achievedEvery) + " s)"),
                Report.cells("writes, writes/s", Report.count(written.get()) + ", " + Report.number(written.get() / seconds)),
                Report.cells("bytes written per second of state (about)", Report.number(written.get() / seconds * live
                        / plan.rewriteSessions()) + " B/s"),
                Report.cells("memstore flush size (table MEMSTORE_FLUSHSIZE)", Report.count(plan.flushSizeBytes()) + " B"),
                Report.cells("live data (after flush + major compaction)", Report.count(live) + " B"),
                Report.cells("disk, mean of samples / live", Report.ratio(diskSum / Math.max(1, samples), live)),
                Report.cells("disk, highest sample / live", Report.ratio(maxDisk, live)),
                Report.cells("disk and archive, highest sample / live", Report.ratio(maxWithArchive, live)),
                Report.cells("files in the store directory, most at one sample", Integer.toString(maxFiles)),
                Report.cells("of them live (the region server's store file count), most", Integer.toString(maxLiveFiles))));
        report.note("Sampled every " + plan.sampleEvery().toMillis() + " ms over " + Report.number(seconds) + " s into "
                + csv.getFileName() + " (run.sh draws sizing-rewrite.png from it): files and bytes in the table's "
                + "directory (the WAL not counted; compacted files stay there until the region server's discharger moves "
                + "them to the archive, every 2 minutes by default), the store files the region server counts live, the "
                + "region's memstore (as the region server reports it, in whole MB), and the table's bytes in the archive "
                + "(deleted by the master's cleaner after 5 minutes by default). One region; HBase's "
                + "compaction defaults (a minor compaction from 3 files); the flush size lowered from HBase's 128 MB so "
                + "that the live data is a few flushes' worth, as in a region of a production table "
                + "(a region holding 250 MB of sessions with the default 128 MB flush size), in a bounded run.");
    }

    private static void rewriteLoop(SessionStore store, StoredSession[] sessions, int thread, int perThread,
            Duration every, AtomicBoolean stop, AtomicLong written) {
        long pass = 0;
        long start = System.nanoTime();
        while (!stop.get()) {
            for (int i = 0; i < perThread && !stop.get(); i++) {
                int index = thread * perThread + i;
                StoredSession session = sessions[index];
                store.save(session, Sessions.change(session, pass));
                written.incrementAndGet();
            }
            pass++;
            long next = start + pass * every.toNanos();
            long wait = next - System.nanoTime();
            if (wait > 0) {
                sleep(Math.min(wait, TimeUnit.SECONDS.toNanos(1)) / 1_000_000 + 1, stop, next);
            }
        }
    }

    private static void sleep(long firstMillis, AtomicBoolean stop, long untilNanos) {
        try {
            while (!stop.get() && System.nanoTime() < untilNanos) {
                TimeUnit.MILLISECONDS.sleep(Math.min(firstMillis, 100));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop.set(true);
        }
    }

    private static long memstoreBytes(List<RegionMetrics> region) {
        return (long) region.stream().map(RegionMetrics::getMemStoreSize)
                .mapToDouble(size -> size.get(Size.Unit.BYTE)).sum();
    }

    // ---- (c) write rate ------------------------------------------------------------------------------------------

    private void writeRate(Report report, Plan plan) throws Exception {
        report.heading("7c. Sizing: writes one region server sustained, into 1 region and into " + plan.rateRegions());
        List<List<String>> rows = new ArrayList<>();
        double[] perSecond = new double[2];
        double[] cpuPerWrite = new double[2];
        for (int round = 0; round < plan.rateRounds(); round++) {
            for (int variant = 0; variant < 2; variant++) {
                int regions = variant == 0 ? 1 : plan.rateRegions();
                String tableName = "bench_sizing_rate" + regions + "_" + round;
                StoreSettings settings = settings(tableName, regions, TableCompression.NONE);
                Measurement saves;
                long cpu;
                try (SessionStore store = SessionStores.open(settings, Sessions.WEBAPP)) {
                    int perThread = plan.rateSessions() / THREADS;
                    StoredSession[] sessions = new StoredSession[perThread * THREADS];
                    new TimedLoop(Duration.ZERO, Duration.ofMinutes(2), perThread).run(THREADS, (t, i) -> {
                        sessions[t * perThread + (int) i] = Sessions.create(store, t * perThread + i);
                    });
                    long cpuBefore = serverCpuMillis();
                    saves = new TimedLoop(Duration.ofMillis(500), plan.rateRun(), Long.MAX_VALUE).run(THREADS, (t, i) -> {
                        StoredSession session = sessions[t * perThread + (int) (i % perThread)];
                        store.save(session, Sessions.change(session, i));
                    });
                    cpu = serverCpuMillis() - cpuBefore;
                }
                try (Connection connection = ConnectionFactory.createConnection(client);
                        Admin admin = connection.getAdmin()) {
                    dropTables(admin, settings);
                }
                double cpuMicros = 1000.0 * cpu / (saves.operations() + saves.warmupOperations());
                perSecond[variant] += saves.perSecond() / plan.rateRounds();
                cpuPerWrite[variant] += cpuMicros / plan.rateRounds();
                rows.add(Report.cells(Integer.toString(round + 1), Integer.toString(regions),
                        Report.number(saves.perSecond()), Report.number(saves.perSecond() / regions),
                        Report.number(saves.p50Millis()) + " / " + Report.number(saves.p99Millis()),
                        Report.number(cpuMicros)));
            }
        }
        report.table(List.of("round", "regions", "writes/s", "writes/s per region", "p50 / p99 ms",
                "server CPU µs per write"), rows);
        report.note(String.format(Locale.ROOT, "Means: %d regions wrote %.2fx the writes/s of 1 region, at %.2fx the "
                + "server CPU per write. Each write is a session saved with a change (CheckAndMutate on the version, "
                + "SYNC_WAL, about 1.1 KB), 8 threads over %d sessions, %.1f s measured after 0.5 s of warm-up, "
                + "one table per row, the variants taking turns.", plan.rateRegions(), perSecond[1] / perSecond[0],
                cpuPerWrite[1] / cpuPerWrite[0], plan.rateSessions(), plan.rateRun().toMillis() / 1000.0));
    }

    // ---- (d) tombstones ------------------------------------------------------------------------------------------

    private void tombstones(Report report, Plan plan, Admin admin, Connection connection) throws Exception {
        report.heading("7d. Sizing: delete markers left by revocation, and what a major compaction removes");
        String tableName = "bench_sizing_revoke";
        StoreSettings settings = settings(tableName, 1, TableCompression.NONE);
        List<TableName> tables = List.of(TableName.valueOf(tableName), TableName.valueOf(tableName + "_index"));
        int sessions = plan.users() * plan.sessionsPerUser() / THREADS * THREADS;
        int revoked = 0;
        List<long[]> stages = new ArrayList<>();
        try (SessionStore store = SessionStores.open(settings, Sessions.WEBAPP)) {
            new TimedLoop(Duration.ZERO, Duration.ofMinutes(5), sessions / THREADS).run(THREADS, (t, i) -> {
                long index = t * (long) (sessions / THREADS) + i;
                login(store, "user" + (index % plan.users()), index);
            });
            stages.add(stage(admin, connection, tables, false));
            for (int u = 0; u < plan.users(); u++) {
                revoked += store.revokeAll("user" + u);
            }
        }
        stages.add(stage(admin, connection, tables, false));
        stages.add(stage(admin, connection, tables, true));
        dropTables(admin, settings);
        String[] names = {"after the logins (flushed)", "after revoking every user (flushed)", "after a major compaction"};
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < stages.size(); i++) {
            long[] s = stages.get(i);
            rows.add(Report.cells(names[i], Report.count(s[0]), Report.count(s[1]), Report.count(s[2]),
                    Report.count(s[3]), Report.count(s[4]), Report.count(s[5])));
        }
        report.table(List.of("stage", "sessions: bytes", "cells", "delete markers", "index: bytes", "cells",
                "delete markers"), rows);
        long[] before = stages.get(0);
        long[] after = stages.get(1);
        report.note(String.format(Locale.ROOT, "%s sessions of %s users logged in (about %d each), then every user revoked "
                + "(%s sessions deleted). Per revoked session the revocation added %.1f delete markers and %.0f bytes "
                + "on disk to the sessions table and %.1f markers and %.0f bytes to the index, on top of the cells it "
                + "deleted, which stay on disk until a major compaction (cells: a raw scan, markers included).",
                Report.count(sessions), Report.count(plan.users()), plan.sessionsPerUser(), Report.count(revoked),
                (double) (after[2] - before[2]) / revoked, (double) (after[0] - before[0]) / revoked,
                (double) (after[5] - before[5]) / revoked, (double) (after[3] - before[3]) / revoked));
    }

    private static void login(SessionStore store, String user, long index) {
        byte[] id = new byte[16];
        ThreadLocalRandom.current().nextBytes(id);
        SessionRecord record = SessionRecord.created(HexFormat.of().withUpperCase().formatHex(id), Instant.now(),
                IDLE_TIMEOUT).withLogin(new SessionPrincipal(user, List.of("user"), "FORM"));
        StoredSession session = store.newSession(record, false);
        session.attributes().putAll(io.hbasesessions.benchmarks.webapp.BenchmarkSession.attributes(index, Instant.now()));
        store.save(session, session.record());
    }

    /** Bytes, raw cells and delete markers of the sessions table, then of the index, after a flush (and compaction). */
    private long[] stage(Admin admin, Connection connection, List<TableName> tables, boolean compact) throws Exception {
        long[] figures = new long[6];
        for (int i = 0; i < tables.size(); i++) {
            TableName table = tables.get(i);
            admin.flush(table);
            figures[3 * i] = compact ? files.majorCompactedBytes(admin, table, COMPACTION_LIMIT) : files.bytes(table);
            try (Table t = connection.getTable(table); ResultScanner scanner = t.getScanner(new Scan().setRaw(true)
                    .readAllVersions())) {
                for (Result result : scanner) {
                    for (Cell cell : result.rawCells()) {
                        figures[3 * i + 1]++;
                        if (CellUtil.isDelete(cell)) {
                            figures[3 * i + 2]++;
                        }
                    }
                }
            }
        }
        return figures;
    }

    // ---- shared --------------------------------------------------------------------------------------------------

    private long serverCpuMillis() {
        return ProcessCpu.of(serverPid.getAsLong()).toMillis();
    }

    private static void dropTables(Admin admin, StoreSettings settings) throws IOException {
        for (String name : List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE))) {
            TableName table = TableName.valueOf(name);
            if (admin.tableExists(table)) {
                admin.disableTable(table);
                admin.deleteTable(table);
            }
        }
    }
}
