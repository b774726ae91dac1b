package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBaseCluster;
import io.hbasesessions.embedded.HBaseClusterExtension;
import io.hbasesessions.embedded.RegionReplicaReplication;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Region replicas and timeline reads on a cluster of 3 region servers with region replica replication:
 * a table without replicas is used as it is with a warning that gives the {@code alter}, and refused with
 * it for timeline reads; secondaries follow
 * the primary within the replication lag (measured, for writes and for revocations); a load the primary
 * does not answer (its region server stopped by SIGSTOP) is served stale by a secondary, fails without
 * timeline reads, and a stale copy never writes a revoked or invalidated session back. Prints FIGURE lines.
 */
@ExtendWith(HBaseClusterExtension.class)
@RegionReplicaReplication
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TimelineReadsOnAClusterTest {

    private static final int REGIONS = 6;
    private static final int REPLICAS = 2;
    private static final int SECONDARY = 1;
    private static final int LAG_SESSIONS = 500;
    private static final int REVOKED_SESSIONS = 100;
    private static final long TIMELINE_READ_AFTER_MILLIS = 50;
    /** Short, so that each stop of a region server ends well within the cluster's 5 s ZooKeeper session. */
    private static final long TIMELINE_STORE_TIMEOUT_MILLIS = 1_500;
    private static final long STRONG_STORE_TIMEOUT_MILLIS = 1_000;
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final Duration REPLICATION_WAIT = Duration.ofSeconds(30);
    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static final int STALE_COPY_ATTEMPTS = 3;

    private static EmbeddedHBaseCluster cluster;
    private static HBaseInspector hbase;
    private static String table;
    private static String keyScope;
    private static SessionStore timeline;
    private static SessionStore strong;
    /** A region server that does not hold hbase:meta: stopping it leaves every other region findable. */
    private static int stoppable;

    @BeforeAll
    static void openStoresOnATableGivenReplicasByTheCheckedFix(EmbeddedHBaseCluster hbaseCluster, TestNamespace namespace,
            Configuration configuration) throws Exception {
        cluster = hbaseCluster;
        hbase = new HBaseInspector(configuration);
        StoreSettings unreplicated = TestStores.settings(cluster, namespace).set(Setting.REGIONS, REGIONS).build();
        table = unreplicated.get(Setting.TABLE);
        keyScope = unreplicated.get(Setting.KEY_SCOPE);
        TestStores.open(unreplicated).close();

        StoreSettings replicated = unreplicated.toBuilder().set(Setting.REGION_REPLICAS, REPLICAS).build();
        String fix = "alter '" + table + "', {REGION_REPLICATION => " + REPLICAS + "}";
        try (LogCapture log = new LogCapture()) {
            TestStores.open(replicated).close();
            assertTrue(log.warnings().stream().anyMatch(message -> message.contains(fix)), log.warnings().toString());
        }
        StoreConfigurationException mismatch = assertThrows(StoreConfigurationException.class,
                () -> TestStores.open(replicated.toBuilder().set(Setting.TIMELINE_READS, true).build()));
        assertTrue(mismatch.getMessage().contains(fix), mismatch.getMessage());
        Instant altered = Instant.now();
        try (Admin admin = hbase.admin()) {
            // What the shell's alter does, on the table as it is: enabled.
            admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(TableName.valueOf(table)))
                    .setRegionReplication(REPLICAS).build());
        }
        cluster.awaitAllRegionsAssigned(TableName.valueOf(table), WAIT);
        figure("alter to REGION_REPLICATION " + REPLICAS + " of an enabled table of " + REGIONS + " regions, until assigned",
                Duration.between(altered, Instant.now()).toMillis() + " ms");

        timeline = TestStores.open(replicated.toBuilder().set(Setting.TIMELINE_READS, true)
                .set(Setting.TIMELINE_READ_AFTER_MILLIS, TIMELINE_READ_AFTER_MILLIS)
                .set(Setting.OPERATION_TIMEOUT_MILLIS, TIMELINE_STORE_TIMEOUT_MILLIS).build());
        strong = TestStores.open(replicated.toBuilder()
                .set(Setting.OPERATION_TIMEOUT_MILLIS, STRONG_STORE_TIMEOUT_MILLIS).build());
        int meta = cluster.regionServerHosting(TableName.META_TABLE_NAME, HConstants.EMPTY_START_ROW);
        stoppable = (meta + 1) % cluster.regionServerCount();
    }

    @AfterAll
    static void closeStores() throws Exception {
        timeline.close();
        strong.close();
        hbase.close();
    }

    @Test
    @Order(1)
    void secondariesFollowWritesAndRevocationsWithinTheReplicationLag() throws Exception {
        Map<byte[], Long> written = new LinkedHashMap<>();
        List<String> ids = new ArrayList<>();
        Map<byte[], Long> visible = watchSecondary(written, result -> !holdsASession(result), () -> {
            for (int i = 0; i < LAG_SESSIONS; i++) {
                String id = TestStores.create(timeline, Instant.now(), HALF_AN_HOUR, Map.of("n", i)).record().id();
                ids.add(id);
                synchronized (written) {
                    written.put(TestStores.rowKey(keyScope, id), System.nanoTime());
                }
            }
        });
        figure("replication lag of " + LAG_SESSIONS + " session creates to the secondary (p50 / p99 / max)",
                percentiles(written, visible));

        Map<byte[], Long> revoked = new LinkedHashMap<>();
        Map<byte[], Long> gone = watchSecondary(revoked, TimelineReadsOnAClusterTest::holdsASession, () -> {
            for (String id : ids.subList(0, REVOKED_SESSIONS)) {
                assertTrue(strong.delete(id));
                synchronized (revoked) {
                    revoked.put(TestStores.rowKey(keyScope, id), System.nanoTime());
                }
            }
        });
        figure("a deleted session still readable on the secondary, of " + REVOKED_SESSIONS + " (p50 / p99 / max)",
                percentiles(revoked, gone));
    }

    @Test
    @Order(2)
    void loadLatencyOfAHealthyPrimaryAndHowOftenASecondaryAnswersInstead() {
        long staleBefore = timeline.counters().get(StoreCounter.STALE_READS);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < LAG_SESSIONS; i++) {
            ids.add(TestStores.create(timeline, Instant.now(), HALF_AN_HOUR, Map.of("n", i)).record().id());
        }
        long[] nanos = new long[ids.size()];
        for (int i = 0; i < ids.size(); i++) {
            long start = System.nanoTime();
            assertTrue(strong.load(ids.get(i)).isPresent());
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        figure("strong loads of " + ids.size() + " sessions on the 3 region server cluster (p50 / p99 / max)",
                millis(nanos[nanos.length / 2]) + " / " + millis(nanos[nanos.length * 99 / 100]) + " / "
                        + millis(nanos[nanos.length - 1]) + " ms");
        // Only a secondary that holds a session can answer for a primary slower than timelineReadAfterMillis;
        // on a busy machine the strong loads above may take less time than the replication.
        ids.forEach(id -> awaitOnSecondary(TestStores.rowKey(keyScope, id)));
        ids.forEach(timeline::load);
        figure("timeline loads of " + ids.size() + " sessions answered by a secondary with the primary healthy "
                + "(timelineReadAfterMillis=" + TIMELINE_READ_AFTER_MILLIS + ")",
                Long.toString(timeline.counters().get(StoreCounter.STALE_READS) - staleBefore));
    }

    @Test
    @Order(3)
    void aLoadThePrimaryDoesNotAnswerIsServedStaleAndAReadOnlyRequestSucceeds() throws Exception {
        String id = replicatedSessionOn(stoppable, Instant.now().minus(Duration.ofMinutes(5)), Map.of("cart", "book"));
        long deferredBefore = timeline.counters().get(StoreCounter.TOUCHES_DEFERRED);
        StoredSession copy;
        SaveResult readOnly;
        SaveResult touch;
        long loadNanos;
        cluster.suspendRegionServer(stoppable);
        try {
            long start = System.nanoTime();
            copy = timeline.load(id).orElseThrow();
            loadNanos = System.nanoTime() - start;
            readOnly = timeline.save(copy, copy.record());
            touch = timeline.save(copy, copy.record().withLastAccessTime(Instant.now()));
        } finally {
            cluster.resumeRegionServer(stoppable);
        }
        figure("load served by a secondary with the primary's region server stopped (timelineReadAfterMillis="
                + TIMELINE_READ_AFTER_MILLIS + ")", millis(loadNanos) + " ms");
        assertTrue(copy.isStale());
        assertEquals(Map.of("cart", "book"), TestStores.attributesOf(copy));
        assertEquals(SaveResult.UNCHANGED, readOnly);
        assertEquals(SaveResult.UNCHANGED, touch, "a due touch the primary cannot take does not fail the request");
        assertEquals(deferredBefore + 1, timeline.counters().get(StoreCounter.TOUCHES_DEFERRED));
        assertTrue(timeline.counters().get(StoreCounter.STALE_READS) > 0);
    }

    @Test
    @Order(4)
    void withoutTimelineReadsTheSameLoadFailsAfterTheOperationTimeout() {
        String id = replicatedSessionOn(stoppable, Instant.now(), Map.of("cart", "pen"));
        long failedAfterNanos;
        cluster.suspendRegionServer(stoppable);
        try {
            long start = System.nanoTime();
            assertThrows(StoreUnavailableException.class, () -> strong.load(id));
            failedAfterNanos = System.nanoTime() - start;
        } finally {
            cluster.resumeRegionServer(stoppable);
        }
        figure("load without timelineReads, primary's region server stopped: StoreUnavailableException after "
                + "(operationTimeoutMillis=" + STRONG_STORE_TIMEOUT_MILLIS + ")", millis(failedAfterNanos) + " ms");
    }

    @Test
    @Order(5)
    void aWriteAfterAStaleLoadIsSavedOnlyIfThePrimaryStillHasTheCopysVersion() {
        String current = replicatedSessionOn(stoppable, Instant.now(), Map.of("a", 0));
        String overtaken = replicatedSessionOn(stoppable, Instant.now(), Map.of("visits", 1));
        Map<String, StoredSession> copies = staleCopies(List.of(current, overtaken));

        StoredSession copy = copies.get(current);
        copy.attributes().put("a", 2);
        assertEquals(SaveResult.WRITTEN, timeline.save(copy, copy.record()));
        assertFalse(copy.isStale());
        assertEquals(Map.of("a", 2), TestStores.attributesOf(strong.load(current).orElseThrow()));

        // What the failover benchmark caught: a write acknowledged on the primary that the secondary has not
        // shown, then a request that increments the counter it read stale. Merging would undo the write.
        StoredSession acknowledged = strong.load(overtaken).orElseThrow();
        acknowledged.attributes().put("visits", 2);
        assertEquals(SaveResult.WRITTEN, strong.save(acknowledged, acknowledged.record()));
        StoredSession behind = copies.get(overtaken);
        behind.attributes().put("visits", (Integer) behind.attributes().get("visits") + 1);
        assertThrows(StoreUnavailableException.class, () -> timeline.save(behind, behind.record()));
        assertEquals(Map.of("visits", 2), TestStores.attributesOf(strong.load(overtaken).orElseThrow()));
    }

    /**
     * Copies loaded from the secondary, then the sessions invalidated and revoked on the primary: what a
     * load from a secondary that has not yet seen the deletes returns, without racing the replication. The
     * stale copies' saves (an attribute change, a due touch) are checked against the primary, which has no
     * row, and end as GONE.
     */
    @Test
    @Order(6)
    void aStaleCopyNeverWritesARevokedOrInvalidatedSessionBack() {
        Instant fiveMinutesAgo = Instant.now().minus(Duration.ofMinutes(5));
        String invalidated = replicatedSessionOn(stoppable, fiveMinutesAgo, Map.of("cart", "1"));
        String revoked = replicatedSessionOn(stoppable, fiveMinutesAgo, Map.of("cart", "2"), "alice");
        String revokedAndTouched = replicatedSessionOn(stoppable, fiveMinutesAgo, Map.of("cart", "3"), "alice");
        List<String> ids = List.of(invalidated, revoked, revokedAndTouched);
        Map<String, StoredSession> copies = staleCopies(ids);
        assertTrue(strong.delete(invalidated));
        assertEquals(2, strong.revokeAll("alice"));
        copies.get(invalidated).attributes().put("cart", "changed");
        copies.get(revoked).attributes().put("cart", "changed");
        StoredSession touched = copies.get(revokedAndTouched);
        assertEquals(SaveResult.GONE, timeline.save(copies.get(invalidated), copies.get(invalidated).record()));
        assertEquals(SaveResult.GONE, timeline.save(copies.get(revoked), copies.get(revoked).record()));
        assertEquals(SaveResult.GONE, timeline.save(touched, touched.record().withLastAccessTime(Instant.now())));
        for (String id : ids) {
            byte[] state = hbase.row(table, TestStores.rowKey(keyScope, id)).getValue(HBaseSessionRows.FAMILY,
                    HBaseSessionRows.STATE);
            assertTrue(HBaseSessionRows.isEnd(state), "written back over its end marker: " + id);
            assertTrue(strong.load(id).isEmpty());
        }
    }

    /** Loads each session from the secondary, with the region server of the primaries stopped meanwhile. */
    private static Map<String, StoredSession> staleCopies(List<String> ids) {
        Map<String, StoredSession> copies = new HashMap<>();
        List<String> fresh = new ArrayList<>(ids);
        // A copy answered by the primary although its region server was stopped was seen once in a CI run, not
        // explained and never again reproduced: such a copy is taken again (it would test nothing), and each
        // time is reported with where the row's primary was then, so that a real cause shows up.
        for (int attempt = 1; attempt <= STALE_COPY_ATTEMPTS && !fresh.isEmpty(); attempt++) {
            cluster.suspendRegionServer(stoppable);
            try {
                for (String id : fresh) {
                    copies.put(id, timeline.load(id).orElseThrow());
                }
            } finally {
                cluster.resumeRegionServer(stoppable);
            }
            fresh = fresh.stream().filter(id -> !copies.get(id).isStale()).toList();
            for (String id : fresh) {
                figure("a copy not stale although region server " + stoppable + " was stopped (attempt " + attempt
                        + ")", "the row's primary is on region server " + cluster.regionServerHosting(
                                TableName.valueOf(table), TestStores.rowKey(keyScope, id)) + " now: " + copies.get(id));
            }
        }
        copies.values().forEach(copy -> assertTrue(copy.isStale(), copy.toString()));
        return copies;
    }

    private static String replicatedSessionOn(int regionServer, Instant created, Map<String, ?> attributes) {
        return replicatedSessionOn(regionServer, created, attributes, null);
    }

    /**
     * A new session whose region's primary is on {@code regionServer}, once its secondary holds it and this
     * test's stores know where both replicas are.
     */
    private static String replicatedSessionOn(int regionServer, Instant created, Map<String, ?> attributes, String user) {
        String id;
        do {
            id = TestStores.newId();
        } while (cluster.regionServerHosting(TableName.valueOf(table), TestStores.rowKey(keyScope, id)) != regionServer);
        SessionRecord record = SessionRecord.created(id, created, HALF_AN_HOUR);
        StoredSession session = timeline.newSession(user == null ? record
                : record.withLogin(new SessionPrincipal(user, List.of(), "FORM")), false);
        session.attributes().putAll(attributes);
        timeline.save(session, session.record());
        awaitOnSecondary(TestStores.rowKey(keyScope, id));
        assertTrue(timeline.load(id).isPresent());
        assertTrue(strong.load(id).isPresent());
        return id;
    }

    private static void awaitOnSecondary(byte[] row) {
        Instant deadline = Instant.now().plus(REPLICATION_WAIT);
        while (hbase.rowsOfReplica(table, List.of(row), SECONDARY).get(0).isEmpty()) {
            assertTrue(Instant.now().isBefore(deadline), "the secondary did not get the session within " + REPLICATION_WAIT);
            sleepMillis(10);
        }
    }

    /**
     * Runs {@code writes}, which add rows and the nanoTime their write returned to {@code written}, while
     * polling the secondary for each row until {@code pending} no longer holds for its result. Rows are
     * the writer's own arrays, so the maps find them by identity.
     *
     * @return when each row stopped being pending, as nanoTime
     * @throws ExecutionException if {@code writes} failed
     */
    private static Map<byte[], Long> watchSecondary(Map<byte[], Long> written, Predicate<Result> pending,
            Runnable writes) throws InterruptedException, ExecutionException {
        Map<byte[], Long> settled = new ConcurrentHashMap<>();
        FutureTask<Void> writer = new FutureTask<>(writes, null);
        new Thread(writer, "writer").start();
        Instant deadline = Instant.now().plus(REPLICATION_WAIT);
        while (!writer.isDone() || settled.size() < writtenCount(written)) {
            List<byte[]> rows;
            synchronized (written) {
                rows = written.keySet().stream().filter(row -> !settled.containsKey(row)).toList();
            }
            List<Result> results = rows.isEmpty() ? List.of() : hbase.rowsOfReplica(table, rows, SECONDARY);
            long now = System.nanoTime();
            for (int i = 0; i < rows.size(); i++) {
                if (!pending.test(results.get(i))) {
                    settled.put(rows.get(i), now);
                }
            }
            assertTrue(Instant.now().isBefore(deadline), (writtenCount(written) - settled.size()) + " rows never "
                    + "settled on the secondary within " + REPLICATION_WAIT);
            sleepMillis(5);
        }
        writer.get();
        return settled;
    }

    /** A session, not nothing nor the end marker a deleted session leaves. */
    private static boolean holdsASession(Result row) {
        byte[] state = row.getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE);
        return state != null && !HBaseSessionRows.isEnd(state);
    }

    private static int writtenCount(Map<byte[], Long> written) {
        synchronized (written) {
            return written.size();
        }
    }

    private static String percentiles(Map<byte[], Long> from, Map<byte[], Long> to) {
        long[] lags = from.entrySet().stream().mapToLong(entry -> to.get(entry.getKey()) - entry.getValue()).sorted()
                .toArray();
        return millis(lags[lags.length / 2]) + " / " + millis(lags[lags.length * 99 / 100]) + " / "
                + millis(lags[lags.length - 1]) + " ms";
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e6);
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static void figure(String subject, String value) {
        System.out.println("FIGURE " + subject + ": " + value);
    }
}
