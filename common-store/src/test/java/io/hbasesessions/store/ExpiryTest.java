package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SaveResult.Outcome;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue #3, point 3: idle expiry is decided in code, HBase's cell TTL only drops the bytes later. */
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
        return hbase.row(settings.table(), TestStores.rowKey(settings.keyScope(), sessionId));
    }

    @Test
    void idleExpiredSessionIsAbsentAlthoughHBaseStillHoldsIt() {
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = SessionStores.open(settings, clock)) {
            SessionRecord session = SessionRecord.builder(TestStores.newId(), clock.instant())
                    .maxInactiveInterval(Duration.ofMinutes(30)).attribute("cart", "book").build();
            store.create(session);

            clock.advance(Duration.ofMinutes(30).minusMillis(1));
            assertTrue(store.load(session.id()).isPresent());
            clock.advance(Duration.ofMillis(1));
            assertTrue(store.load(session.id()).isEmpty());
            assertFalse(store.exists(session.id()));
            assertEquals(1, store.counters().expiredOnLoad());
            assertFalse(rawRow(session.id()).isEmpty(), "HBase still holds the row: the cell TTL has not passed");
        }
    }

    @Test
    void cellsAreGoneFromARawGetOnceTheCellTtlPasses() throws Exception {
        MutationRecorder recorder = new MutationRecorder();
        try (SessionStore store = TestStores.open(settings, Clock.systemUTC(), recorder)) {
            SessionRecord session = SessionRecord.builder(TestStores.newId(), Clock.systemUTC().instant())
                    .maxInactiveInterval(TWO_SECONDS).attribute("cart", "book").build();
            long writtenNanos = System.nanoTime();
            store.create(session);
            assertEquals(TWO_SECOND_SESSION_CELL_TTL_MILLIS, recorder.all().get(0).ttlMillis());

            Thread.sleep(TWO_SECOND_SESSION_CELL_TTL_MILLIS - 1_000);
            assertTrue(store.load(session.id()).isEmpty(), "idle for over 2 s: expired in code");
            assertFalse(rawRow(session.id()).isEmpty(), "before the cell TTL HBase still returns the cells");
            long goneAfterMillis = millisUntilGone(session.id(), writtenNanos);
            System.out.println("cells of a 2 s session vanished from Get " + goneAfterMillis + " ms after the write");
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
     * The trap of a design that rewrites only a last-seen cell: every other cell dies by its TTL while
     * the user is active. The probe cell written once beside the session shows the TTL really bites;
     * the session, touched every second for over five idle timeouts, keeps every attribute.
     */
    @Test
    void sessionTouchedEverySecondForFiveIdleTimeoutsKeepsEveryAttribute() throws Exception {
        try (SessionStore store = SessionStores.open(settings)) {
            Map<String, Object> attributes = Map.of("user", "alice", "cart", List.of("book", "pen"), "visits", 7);
            SessionRecord session = SessionRecord.builder(TestStores.newId(), Clock.systemUTC().instant())
                    .maxInactiveInterval(TWO_SECONDS).attributes(attributes).build();
            LoadedSession loaded = store.create(session);
            byte[] probe = Bytes.toBytes("probe");
            Put probeCell = new Put(TestStores.rowKey(settings.keyScope(), session.id()))
                    .addColumn(SessionTable.FAMILY, probe, Bytes.toBytes("written once"));
            probeCell.setTTL(TWO_SECOND_SESSION_CELL_TTL_MILLIS);
            hbase.put(settings.table(), probeCell);

            for (int second = 1; second <= 11; second++) {
                Thread.sleep(1_000);
                loaded = store.load(session.id()).orElseThrow(() -> new AssertionError("session lost while active"));
                assertEquals(Outcome.TOUCHED, store.touch(loaded, Clock.systemUTC().instant()).outcome());
            }

            assertEquals(attributes, store.load(session.id()).orElseThrow().record().attributes());
            Result row = rawRow(session.id());
            assertTrue(row.containsColumn(SessionTable.FAMILY, SessionTable.STATE));
            assertFalse(row.containsColumn(SessionTable.FAMILY, probe), "a cell written once is gone by its TTL");
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
            SessionRecord session = SessionRecord.builder(TestStores.newId(), Clock.systemUTC().instant())
                    .maxInactiveInterval(Duration.ofMinutes(30)).attribute("cart", "book").build();
            LoadedSession loaded = store.create(session);
            SessionRecord shortened = loaded.record().toBuilder().maxInactiveInterval(TWO_SECONDS)
                    .lastAccessTime(Clock.systemUTC().instant()).build();
            assertEquals(Outcome.WRITTEN, store.save(loaded, shortened).outcome());
            long firstTtl = recorder.all().get(0).ttlMillis();
            assertEquals(firstTtl, recorder.all().get(1).ttlMillis(), "the cell TTL never shrinks");

            Thread.sleep(TWO_SECOND_SESSION_CELL_TTL_MILLIS + 500);
            assertTrue(store.load(session.id()).isEmpty(), "idle past its 2 s timeout");
            assertFalse(store.exists(session.id()));
        }
    }
}
