package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.http.ProcessCpu;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Part 2e: what a read and a conditional write of a session row cost as the row's rewrites since its last flush
 * grow. Every save rewrites both cells of the row, and the region server keeps every rewrite in its memstore
 * until a flush (and, with {@code NEW_VERSION_BEHAVIOR}, in its files until a major compaction). For each count
 * N, {@link #ROWS} rows of a fresh one-region table (the store's own family, with a flush size no step reaches)
 * are rewritten N times, then read and conditionally written as the store does: a Get of the family (a load), a
 * Get of the version cell alone, a CheckAndMutate whose version check fails (the check alone) and one that
 * succeeds (check and write). Each step runs on the family as the store creates it and, in the same run, with
 * {@code NEW_VERSION_BEHAVIOR=true} (the schema before issue #29); the largest N once more after a flush.
 */
public final class RewriteCostBenchmark {

    static final int ROWS = 8;
    private static final byte[] FAMILY = Bytes.toBytes("s");
    private static final byte[] STATE = Bytes.toBytes("state");
    private static final byte[] VERSION = Bytes.toBytes("ver");
    /** About the realistic session's state cell (1,138 bytes with Kryo, part 1b). */
    private static final int STATE_BYTES = 1_138;
    private static final long CELL_TTL_MILLIS = Duration.ofMinutes(31).toMillis();
    private static final long NEVER_FLUSHED_BYTES = 2L << 30;

    private final StoreSettings settings;
    private final Configuration client;
    private final LongSupplier hbasePid;

    /** {@code settings}: the store's, naming the table whose family every step copies. */
    public RewriteCostBenchmark(StoreSettings settings, Configuration client, LongSupplier hbasePid) {
        this.settings = settings;
        this.client = client;
        this.hbasePid = hbasePid;
    }

    /** What one kind of call cost at one step: client-side mean latency and the region server's CPU, per call. */
    private record Cost(double meanMicros, double serverCpuMicros) {
    }

    private interface Call {
        void on(Table table, int row, long version) throws IOException;
    }

    public void run(Report report, List<Integer> rewriteCounts, int readsPerStep, int writesPerRow) throws Exception {
        report.heading("2e. A session row's rewrites since its last flush: what the next read and write cost");
        List<List<String>> rows = new ArrayList<>();
        try (Connection connection = ConnectionFactory.createConnection(client); Admin admin = connection.getAdmin()) {
            ColumnFamilyDescriptor storeFamily = storeFamily(admin);
            ColumnFamilyDescriptor before = ColumnFamilyDescriptorBuilder.newBuilder(storeFamily)
                    .setNewVersionBehavior(true).build();
            // Not reported: the region server compiles its read and write paths during the first steps.
            for (ColumnFamilyDescriptor family : List.of(storeFamily, before)) {
                step(connection, admin, family, family == storeFamily, rewriteCounts.get(0), readsPerStep, writesPerRow,
                        false);
            }
            for (int rewrites : rewriteCounts) {
                boolean flushedToo = rewrites == rewriteCounts.get(rewriteCounts.size() - 1);
                for (ColumnFamilyDescriptor family : List.of(storeFamily, before)) {
                    rows.addAll(step(connection, admin, family, family == storeFamily, rewrites, readsPerStep,
                            writesPerRow, flushedToo));
                }
            }
        }
        report.table(List.of("family", "rewrites of each row", "flushed", "Get family µs (server CPU µs)",
                "Get ver µs (server CPU µs)", "failed check µs (server CPU µs)", "CheckAndMutate µs (server CPU µs)"),
                rows);
        report.note(ROWS + " rows per step, each rewritten N times (the state cell of " + STATE_BYTES + " bytes and the "
                + "version cell in one Put per rewrite, SYNC_WAL, the store's cell TTL), then " + Report.count(readsPerStep)
                + " calls of each read kind over the rows and " + writesPerRow + " successful CheckAndMutates per row "
                + "(each one more rewrite). µs: mean client-side latency, one call at a time; server CPU: the HBase "
                + "JVM's user + system time over the calls of that kind, per call. The family as the store creates it, "
                + "and the same with NEW_VERSION_BEHAVIOR=true as before issue #29, taking turns at each N, after one "
                + "unreported step of each to warm the region server up.");
    }

    private ColumnFamilyDescriptor storeFamily(Admin admin) throws IOException {
        try (SessionStore ignored = SessionStores.open(settings, Sessions.WEBAPP)) {
            return admin.getDescriptor(TableName.valueOf(settings.get(Setting.TABLE))).getColumnFamily(FAMILY);
        }
    }

    /** One step on a fresh table of {@code family}: the store's own ({@code asCreated}) or the one before issue #29. */
    private List<List<String>> step(Connection connection, Admin admin, ColumnFamilyDescriptor family,
            boolean asCreated, int rewrites, int reads, int writesPerRow, boolean alsoFlushed) throws Exception {
        TableName name = TableName.valueOf(settings.get(Setting.TABLE) + String.format(Locale.ROOT, "_rewrites_%d_%s",
                rewrites, asCreated ? "store" : "nvb"));
        admin.createTable(TableDescriptorBuilder.newBuilder(name).setMemStoreFlushSize(NEVER_FLUSHED_BYTES)
                .setColumnFamily(family).build());
        String label = (asCreated ? "as the store creates it (" : "before #29 (") + "NEW_VERSION_BEHAVIOR="
                + family.isNewVersionBehavior() + ")";
        List<List<String>> rows = new ArrayList<>();
        try (Table table = connection.getTable(name)) {
            long[] versions = rewrite(connection, name, rewrites);
            rows.add(measure(table, label, rewrites, false, reads, writesPerRow, versions));
            if (alsoFlushed) {
                admin.flush(name);
                rows.add(measure(table, label, rewrites, true, reads, writesPerRow, versions));
            }
        } finally {
            admin.disableTable(name);
            admin.deleteTable(name);
        }
        return rows;
    }

    /**
     * Writes every row {@code rewrites} times, as the store's saves do: one Put per call, each its own entry in the
     * memstore (Puts of one row in one batch would share a sequence id and replace each other there). The rows are
     * written side by side, one thread (and table instance) each. Returns each row's last version.
     */
    private static long[] rewrite(Connection connection, TableName name, int rewrites) throws Exception {
        long[] versions = new long[ROWS];
        ExecutorService writers = Executors.newFixedThreadPool(ROWS);
        try {
            List<Future<?>> rows = new ArrayList<>();
            for (int row = 0; row < ROWS; row++) {
                int index = row;
                rows.add(writers.submit(() -> {
                    try (Table table = connection.getTable(name)) {
                        for (int version = 1; version <= rewrites; version++) {
                            table.put(put(index, version));
                        }
                    }
                    versions[index] = rewrites;
                    return null;
                }));
            }
            for (Future<?> row : rows) {
                row.get();
            }
        } finally {
            writers.shutdownNow();
        }
        return versions;
    }

    private List<String> measure(Table table, String family, int rewrites, boolean flushed, int reads,
            int writesPerRow, long[] versions) throws IOException {
        Cost getFamily = cost(table, reads, versions, (t, row, version) -> t.get(new Get(key(row)).addFamily(FAMILY)));
        Cost getVersion = cost(table, reads, versions,
                (t, row, version) -> t.get(new Get(key(row)).addColumn(FAMILY, VERSION)));
        Cost failedCheck = cost(table, reads, versions, (t, row, version) -> require(!t.checkAndMutate(
                CheckAndMutate.newBuilder(key(row)).ifEquals(FAMILY, VERSION, Bytes.toBytes(-version))
                        .build(put(row, version + 1))).isSuccess()));
        Cost write = cost(table, writesPerRow * ROWS, versions, (t, row, version) -> {
            require(t.checkAndMutate(CheckAndMutate.newBuilder(key(row)).ifEquals(FAMILY, VERSION, Bytes.toBytes(version))
                    .build(put(row, version + 1))).isSuccess());
            versions[row] = version + 1;
        });
        return Report.cells(family, Report.count(rewrites), flushed ? "yes" : "no", shown(getFamily),
                shown(getVersion), shown(failedCheck), shown(write));
    }

    private Cost cost(Table table, int calls, long[] versions, Call call) throws IOException {
        Duration cpuBefore = ProcessCpu.of(hbasePid.getAsLong());
        long started = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            int row = i % ROWS;
            call.on(table, row, versions[row]);
        }
        long nanos = System.nanoTime() - started;
        Duration cpu = ProcessCpu.of(hbasePid.getAsLong()).minus(cpuBefore);
        return new Cost(nanos / 1_000.0 / calls, cpu.toNanos() / 1_000.0 / calls);
    }

    private static String shown(Cost cost) {
        return Report.number(cost.meanMicros()) + " (" + Report.number(cost.serverCpuMicros()) + ")";
    }

    private static Put put(int row, long version) {
        byte[] state = new byte[STATE_BYTES];
        ThreadLocalRandom.current().nextBytes(state);
        Put put = new Put(key(row)).addColumn(FAMILY, STATE, state).addColumn(FAMILY, VERSION, Bytes.toBytes(version));
        put.setTTL(CELL_TTL_MILLIS);
        put.setDurability(Durability.SYNC_WAL);
        return put;
    }

    /** Row keys spread like the store's hashes, in the table's one region. */
    private static byte[] key(int row) {
        return Bytes.toBytes(String.format(Locale.ROOT, "%02x-session-row", row * 31));
    }

    private static void require(boolean outcome) {
        if (!outcome) {
            throw new IllegalStateException("A conditional write did not do what the step expects");
        }
    }
}
