package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** HBase's TTL replaces the reaper; the store's own check decides expiry to the millisecond. */
@ExtendWith(HBaseExtension.class)
class ExpiryTest {

    private static final Duration TWO_SECONDS = Duration.ofSeconds(2);
    /** 2 s idle + min(touch interval, a tenth of 2 s) + min(60 s, 2 s) slack. */
    private static final long TWO_SECOND_SESSION_CELL_TTL_MILLIS = 2_000 + 200 + 2_000;

    private static StoreSettings settings;
    private static HBaseInspector hbase;

    @BeforeAll
    static void connect(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) {
        settings = TestStores.settings(server, namespace).build();
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void disconnect() throws Exception {
        hbase.close();
    }

    private Result rawRow(String sessionId) {
        return hbase.row(settings.get(Setting.TABLE), TestStores.rowKey("/shop", sessionId));
    }

    @Test
    void anIdleExpiredSessionIsAbsentAlthoughHBaseStillHoldsIt() {
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(settings, clock)) {
            String id = TestStores.create(store, clock.instant(), Duration.ofMinutes(30), Map.of("cart", "book"))
                    .record().id();

            clock.advance(Duration.ofMinutes(30).minusMillis(1));
            assertTrue(store.load(id).isPresent());
            clock.advance(Duration.ofMillis(1));
            assertTrue(store.load(id).isEmpty());
            assertEquals(Set.of(), store.liveAmong(List.of(id)));
            assertEquals(1, store.counters().get(StoreCounter.EXPIRED_ON_LOAD));
            assertFalse(rawRow(id).isEmpty(), "HBase still holds the row: the cell TTL has not passed");
        }
    }

    @Test
    void aSessionThatNeverIdlesEndsAtItsMaximumLifetime() {
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(settings, clock)) {
            String id = TestStores.create(store, clock.instant(), Duration.ZERO, Map.of("cart", "book")).record().id();
            clock.advance(Duration.ofDays(7).minusMillis(1));
            assertTrue(store.load(id).isPresent());
            clock.advance(Duration.ofMillis(1));
            assertTrue(store.load(id).isEmpty());
        }
    }

    @Test
    void cellsAreGoneFromARawGetOnceTheCellTtlPasses() throws Exception {
        MutationRecorder recorder = new MutationRecorder();
        try (SessionStore store = TestStores.open(settings, Clock.systemUTC(), recorder)) {
            long writtenNanos = System.nanoTime();
            String id = TestStores.create(store, Instant.now(), TWO_SECONDS, Map.of("cart", "book")).record().id();
            assertEquals(TWO_SECOND_SESSION_CELL_TTL_MILLIS, recorder.all().get(0).ttlMillis());

            Thread.sleep(TWO_SECOND_SESSION_CELL_TTL_MILLIS - 1_000);
            assertTrue(store.load(id).isEmpty(), "idle for over 2 s: expired in code");
            assertFalse(rawRow(id).isEmpty(), "before the cell TTL HBase still returns the cells");
            long goneAfterMillis = millisUntilGone(id, writtenNanos);
            System.out.println("cells of a 2 s session vanished from Get " + goneAfterMillis + " ms after the write");
            assertTrue(goneAfterMillis >= TWO_SECOND_SESSION_CELL_TTL_MILLIS - 1_000, goneAfterMillis + " ms");
        }
    }

    /**
     * Issue #29: a session's end is a marker written over its row, which outlives the session's cells (it has their
     * cell TTL, and is written later) and then goes too: an invalidated session leaves nothing behind for long.
     */
    @Test
    void anEndedSessionsMarkerIsGoneByTheSessionsCellTtl() throws Exception {
        MutationRecorder recorder = new MutationRecorder();
        try (SessionStore store = TestStores.open(settings, Clock.systemUTC(), recorder)) {
            String id = TestStores.create(store, Instant.now(), TWO_SECONDS, Map.of("cart", "book")).record().id();
            long endedNanos = System.nanoTime();
            assertTrue(store.delete(id));
            List<MutationRecorder.Recorded> end = recorder.matching(MutationRecorder.Recorded::removes);
            assertEquals(TWO_SECOND_SESSION_CELL_TTL_MILLIS, end.get(0).ttlMillis(), "the session's own cell TTL");

            assertTrue(HBaseSessionRows.isEnd(rawRow(id).getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE)));
            long goneAfterMillis = millisUntilGone(id, endedNanos);
            assertTrue(goneAfterMillis >= TWO_SECOND_SESSION_CELL_TTL_MILLIS - 1_000, goneAfterMillis + " ms");
        }
    }

    private long millisUntilGone(String sessionId, long writtenNanos) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!rawRow(sessionId).isEmpty()) {
            assertTrue(System.nanoTime() < deadline, "cells still there 15 s after the write");
            Thread.sleep(100);
        }
        return Duration.ofNanos(System.nanoTime() - writtenNanos).toMillis();
    }

    /**
     * The trap of a design that rewrites only a last-seen cell: every other cell dies by its TTL while the
     * user is active. The probe cell written once beside the session shows the TTL really bites; the
     * session, touched every second for over five idle timeouts, keeps every attribute.
     */
    @Test
    void aSessionTouchedEverySecondForFiveIdleTimeoutsKeepsEveryAttribute() throws Exception {
        try (SessionStore store = TestStores.open(settings)) {
            Map<String, Object> attributes = Map.of("user", "alice", "cart", List.of("book", "pen"), "visits", 7);
            StoredSession session = TestStores.create(store, Instant.now(), TWO_SECONDS, attributes);
            String id = session.record().id();
            byte[] probe = Bytes.toBytes("probe");
            Put probeCell = new Put(TestStores.rowKey("/shop", id))
                    .addColumn(HBaseSessionRows.FAMILY, probe, Bytes.toBytes("written once"));
            probeCell.setTTL(TWO_SECOND_SESSION_CELL_TTL_MILLIS);
            hbase.put(settings.get(Setting.TABLE), probeCell);

            for (int second = 1; second <= 11; second++) {
                Thread.sleep(1_000);
                StoredSession loaded = store.load(id).orElseThrow(() -> new AssertionError("session lost while active"));
                assertEquals(SaveResult.TOUCHED, store.save(loaded, loaded.record().withLastAccessTime(Instant.now())));
            }

            assertEquals(attributes, TestStores.attributesOf(store.load(id).orElseThrow()));
            Result row = rawRow(id);
            assertTrue(row.containsColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE));
            assertFalse(row.containsColumn(HBaseSessionRows.FAMILY, probe), "a cell written once is gone by its TTL");
        }
    }

    /**
     * HBase shows the newest cell that has not expired: if a write that shortens the idle timeout got a
     * shorter cell TTL, the older state (30 min) would come back once the newer cell expired.
     */
    @Test
    void shorteningTheIdleTimeoutNeverBringsAnOlderStateBack() throws Exception {
        MutationRecorder recorder = new MutationRecorder();
        try (SessionStore store = TestStores.open(settings, Clock.systemUTC(), recorder)) {
            StoredSession session = TestStores.create(store, Instant.now(), Duration.ofMinutes(30), Map.of("cart", "book"));
            SessionRecord shortened = session.record().withMaxInactiveInterval(TWO_SECONDS).withLastAccessTime(Instant.now());
            assertEquals(SaveResult.WRITTEN, store.save(session, shortened));
            long firstTtl = recorder.all().get(0).ttlMillis();
            assertEquals(firstTtl, recorder.all().get(1).ttlMillis(), "the cell TTL never shrinks");

            Thread.sleep(TWO_SECOND_SESSION_CELL_TTL_MILLIS + 500);
            assertTrue(store.load(session.record().id()).isEmpty(), "idle past its 2 s timeout");
        }
    }
}
