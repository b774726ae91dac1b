package io.hbasesessions.store;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * {@link StoreAdministration} on HBase. Schema work goes through {@link SessionTables}; everything that reads
 * or changes sessions goes through a {@link SessionProtocol} (and its {@link OperatorWork}) opened on the checked
 * tables, so the admin tool follows the store's rules rather than copies of them. Only {@link #stats} reads HBase's
 * own metrics.
 */
final class HBaseStoreAdministration implements StoreAdministration {

    private static final int SWEEP_PAGE_ROWS = 500;
    private static final int COUNT_SCAN_CACHING = 1_000;
    /** Upper bounds of the age buckets; the last bucket is everything older. */
    private static final List<Duration> AGE_BUCKETS = List.of(Duration.ofMinutes(1), Duration.ofMinutes(10),
            Duration.ofHours(1), Duration.ofDays(1), Duration.ofDays(7));
    private static final List<Long> SIZE_BUCKETS = List.of(1L << 10, 4L << 10, 16L << 10, 64L << 10, 256L << 10);

    private final StoreSettings settings;
    private final HBaseCalls calls = new HBaseCalls(new LiveCounters());
    private final SharedConnections.Lease connection;
    private SessionProtocol protocol;

    HBaseStoreAdministration(StoreSettings settings) {
        this.settings = settings;
        this.connection = SharedConnections.acquire(settings, calls);
    }

    @Override
    public List<String> createTables() {
        SessionTables tables = new SessionTables(connection.connection(), calls, settings);
        List<String> created = tables.createMissing();
        List<String> problems = tables.problems();
        if (!problems.isEmpty()) {
            throw new StoreConfigurationException(String.join("\n", problems));
        }
        return created;
    }

    @Override
    public List<String> schemaProblems() {
        return new SessionTables(connection.connection(), calls, settings).problems();
    }

    @Override
    public SessionInspection inspect(String sessionId, Optional<ClassLoader> valueClasses) {
        SessionKey key = SessionKey.forLookup(settings.get(Setting.KEY_SCOPE), SessionIds.withoutRoute(sessionId))
                .orElseThrow(() -> new IllegalArgumentException("That is not a session id: an id is 1 to "
                        + SessionIds.MAX_ID_CHARS + " letters, digits or _ + / = - (and an optional .route suffix)"));
        return protocol().operatorWork().inspect(key, valueClasses);
    }

    @Override
    public SessionInspection inspectRow(String rowKeyHex, Optional<ClassLoader> valueClasses) {
        byte[] row;
        try {
            row = HexFormat.of().parseHex(rowKeyHex.trim());
        } catch (IllegalArgumentException e) {
            row = new byte[0];
        }
        SessionKey key = SessionKey.fromRow(row).orElseThrow(() -> new IllegalArgumentException(
                "A row key is " + SessionKey.ROW_BYTES * 2 + " hex digits (the SHA-256 of keyScope and id)"));
        return protocol().operatorWork().inspect(key, valueClasses);
    }

    @Override
    public Revocation revoke(String user) {
        SessionProtocol store = protocol();
        List<IndexedSession> found = store.findByUser(user);
        return new Revocation(user, found, store.revokeAll(user));
    }

    @Override
    public IndexSweep sweepIndex(long minEntryAgeSeconds) {
        return protocol().operatorWork().sweepIndex(minEntryAgeSeconds, SWEEP_PAGE_ROWS);
    }

    @Override
    public StoreStats stats(int sampleRows, long rowCountLimitPerRegion) {
        AsyncConnection hbase = connection.connection();
        Deadline deadline = Deadline.afterMillis(settings.startUpTimeoutMillis());
        TableName name = TableName.valueOf(settings.get(Setting.TABLE));
        AsyncTable<AdvancedScanResultConsumer> table = hbase.getTableBuilder(name)
                .setOperationTimeout(deadline.budgetMillis(), TimeUnit.MILLISECONDS)
                .setScanTimeout(deadline.budgetMillis(), TimeUnit.MILLISECONDS).build();
        List<HRegionLocation> locations = await(hbase.getRegionLocator(name).getAllRegionLocations(), deadline,
                "locating the regions of " + name).stream().filter(l -> l.getRegion().getReplicaId() == 0).toList();
        Map<String, RegionMetrics> metrics = regionMetrics(hbase, name, locations, deadline);
        int perRegion = Math.max(1, (sampleRows + locations.size() - 1) / Math.max(1, locations.size()));
        List<StoreStats.Region> regions = new ArrayList<>();
        Map<String, StoreStats.ServerTotals> servers = new LinkedHashMap<>();
        SampleTally sample = new SampleTally();
        for (HRegionLocation location : locations) {
            RegionInfo region = location.getRegion();
            long rows = await(table.scanAll(countScan(region, rowCountLimitPerRegion)), deadline,
                    "counting the rows of region " + region.getEncodedName()).size();
            Optional<RegionMetrics> measured = Optional.ofNullable(metrics.get(region.getRegionNameAsString()));
            StoreStats.Region stats = new StoreStats.Region(region.getEncodedName(),
                    HexFormat.of().formatHex(region.getStartKey()), location.getServerName().getAddress().toString(),
                    rows, rows >= rowCountLimitPerRegion, measured.map(m -> mebibytes(m.getStoreFileSize())).orElse(0.0),
                    measured.map(RegionMetrics::getStoreFileCount).orElse(0),
                    measured.map(m -> mebibytes(m.getMemStoreSize())).orElse(0.0));
            regions.add(stats);
            servers.merge(stats.server(), new StoreStats.ServerTotals(1, rows, stats.storeFileMiB(), stats.storeFiles()),
                    (a, b) -> new StoreStats.ServerTotals(a.regions() + b.regions(), a.rows() + b.rows(),
                            a.storeFileMiB() + b.storeFileMiB(), a.storeFiles() + b.storeFiles()));
            await(table.scanAll(sampleScan(region, perRegion)), deadline, "sampling region " + region.getEncodedName())
                    .forEach(sample::add);
        }
        return new StoreStats(name.getNameAsString(), rowCountLimitPerRegion, regions, servers,
                sample.result(sampleRows));
    }

    private Map<String, RegionMetrics> regionMetrics(AsyncConnection hbase, TableName name,
            List<HRegionLocation> locations, Deadline deadline) {
        AsyncAdmin admin = hbase.getAdminBuilder().setOperationTimeout(deadline.budgetMillis(), TimeUnit.MILLISECONDS)
                .build();
        Map<String, RegionMetrics> byRegion = new LinkedHashMap<>();
        for (ServerName server : locations.stream().map(HRegionLocation::getServerName).distinct().toList()) {
            await(admin.getRegionMetrics(server, name), deadline, "reading the region metrics of " + server)
                    .forEach(m -> byRegion.put(m.getNameAsString(), m));
        }
        return byRegion;
    }

    private static Scan countScan(RegionInfo region, long limit) {
        return regionScan(region).setFilter(new FilterList(new FirstKeyOnlyFilter(), new KeyOnlyFilter()))
                .setLimit((int) Math.min(Integer.MAX_VALUE, limit)).setCaching(COUNT_SCAN_CACHING);
    }

    private static Scan sampleScan(RegionInfo region, int rows) {
        return regionScan(region).addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE)
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION).setLimit(rows);
    }

    private static Scan regionScan(RegionInfo region) {
        return new Scan().withStartRow(region.getStartKey()).withStopRow(region.getEndKey());
    }

    private static double mebibytes(Size size) {
        return size.get(Size.Unit.MEGABYTE);
    }

    /** The histograms of the sampled rows, read as the store reads them. */
    private final class SampleTally {
        private final StateSeal seal = StateSeal.of(settings, new LiveCounters());
        private final ExpiryPolicy expiry = new ExpiryPolicy(settings.get(Setting.TOUCH_INTERVAL_SECONDS),
                settings.get(Setting.MAX_LIFETIME_SECONDS));
        private final Instant now = Instant.now();
        private final long[] ages = new long[AGE_BUCKETS.size() + 1];
        private final long[] sizes = new long[SIZE_BUCKETS.size() + 1];
        private int rows;
        private int ended;
        private int unreadable;

        void add(Result result) {
            rows++;
            byte[] stateCell = result.getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE);
            if (stateCell != null && HBaseSessionRows.isEnd(stateCell)) {
                // An end marker: the row of a session that was invalidated or revoked.
                ended++;
                return;
            }
            Optional<SessionRow> row;
            try {
                row = SessionKey.fromRow(result.getRow())
                        .flatMap(key -> HBaseSessionRows.parse(seal, key, result));
            } catch (CorruptSessionDataException e) {
                row = Optional.empty();
            }
            if (row.isEmpty()) {
                unreadable++;
                return;
            }
            StoredState state = row.get().state();
            if (expiry.isOverAt(state, now)) {
                ended++;
            }
            Duration age = Duration.between(state.creationTime(), now);
            ages[bucket(AGE_BUCKETS.stream().map(limit -> age.compareTo(limit) < 0).toList())]++;
            long size = stateCell.length;
            sizes[bucket(SIZE_BUCKETS.stream().map(limit -> size < limit).toList())]++;
        }

        private static int bucket(List<Boolean> below) {
            int index = below.indexOf(true);
            return index < 0 ? below.size() : index;
        }

        StoreStats.Sample result(int requested) {
            Map<String, Long> ageHistogram = new LinkedHashMap<>();
            List<String> ageLabels = List.of("< 1 min", "1-10 min", "10-60 min", "1-24 h", "1-7 d", ">= 7 d");
            List<String> sizeLabels = List.of("< 1 KiB", "1-4 KiB", "4-16 KiB", "16-64 KiB", "64-256 KiB", ">= 256 KiB");
            for (int i = 0; i < ages.length; i++) {
                ageHistogram.put(ageLabels.get(i), ages[i]);
            }
            Map<String, Long> sizeHistogram = new LinkedHashMap<>();
            for (int i = 0; i < sizes.length; i++) {
                sizeHistogram.put(sizeLabels.get(i), sizes[i]);
            }
            return new StoreStats.Sample(requested, rows, ended, unreadable, ageHistogram, sizeHistogram);
        }
    }

    private <T> T await(CompletableFuture<T> call, Deadline deadline, String what) {
        return calls.await(call, deadline, null, what);
    }

    /** Opened on first use: schema commands must work while the tables are missing or wrong. */
    private SessionProtocol protocol() {
        if (protocol == null) {
            StoreSettings checked = settings.toBuilder().set(Setting.CREATE_TABLE, false).build();
            protocol = HBaseSessions.open(checked, new Webapp(HBaseStoreAdministration.class.getClassLoader(),
                    Container.NONE), Clock.systemUTC(), table -> table);
        }
        return protocol;
    }

    @Override
    public void close() {
        if (protocol != null) {
            protocol.close();
        }
        connection.close();
    }
}
