package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.MutationRecorder.Recorded;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Durability;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each kind of write uses the durability it needs, seen in the real mutations the store hands the
 * HBase client: lifecycle writes (create, login, logout, id change, invalidation, revocation) at least
 * SYNC_WAL, here FSYNC_WAL because attribute writes ask for it; touches ASYNC_WAL; never SKIP_WAL.
 */
@ExtendWith(HBaseExtension.class)
class DurabilityTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static final MutationRecorder RECORDER = new MutationRecorder();
    private static final List<Recorded> EVERYTHING = new ArrayList<>();
    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static SessionStore store;
    private static StoreSettings settings;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace) {
        settings = TestStores.settings(server, namespace).set(Setting.WRITE_DURABILITY, WriteDurability.FSYNC_WAL).build();
        store = TestStores.open(settings, CLOCK, RECORDER);
    }

    /** Whatever any test here made the store write, nothing asked HBase to skip the WAL. */
    @AfterAll
    static void nothingEverSkippedTheWal() {
        store.close();
        EVERYTHING.addAll(RECORDER.drain());
        assertFalse(EVERYTHING.isEmpty());
        assertTrue(EVERYTHING.stream().noneMatch(m -> m.durability() == Durability.SKIP_WAL));
    }

    private static List<Recorded> writesOf(Runnable operation) {
        EVERYTHING.addAll(RECORDER.drain());
        operation.run();
        List<Recorded> writes = RECORDER.drain();
        EVERYTHING.addAll(writes);
        return writes;
    }

    private static void assertAllUse(Durability expected, List<Recorded> writes, int count) {
        assertEquals(count, writes.size(), writes.toString());
        writes.forEach(write -> assertEquals(expected, write.durability(), write.toString()));
    }

    private static StoredSession created(String user) {
        StoredSession session = store.newSession(SessionRecord.created(TestStores.newId(), CLOCK.instant(), HALF_AN_HOUR)
                .withLogin(user == null ? null : new SessionPrincipal(user, List.of(), "FORM")), false);
        writesOf(() -> store.save(session, session.record()));
        return session;
    }

    @Test
    void aCreateWritesTheIndexEntryFirstThenTheSessionBothDurably() {
        StoredSession session = store.newSession(SessionRecord.created(TestStores.newId(), CLOCK.instant(), HALF_AN_HOUR)
                .withLogin(new SessionPrincipal("dora", List.of(), "FORM")), false);
        List<Recorded> writes = writesOf(() -> store.save(session, session.record()));
        assertAllUse(Durability.FSYNC_WAL, writes, 2);
        assertEquals(settings.get(Setting.INDEX_TABLE), writes.get(0).table(), "login order: the index entry first");
        assertEquals(Long.MAX_VALUE, writes.get(0).ttlMillis(), "index entries have no cell TTL");
        assertEquals(settings.get(Setting.TABLE), writes.get(1).table());
        assertEquals(HALF_AN_HOUR.plusSeconds(60).plusSeconds(60).toMillis(), writes.get(1).ttlMillis());
    }

    /**
     * A session created where one with its id ended goes over the end marker without a cell TTL: the marker may
     * hide cells of the ended session that outlive the new one's TTL, which must never show again.
     */
    @Test
    void aCreateOverAnEndedSessionHasNoCellTtl() {
        StoredSession ended = created(null);
        writesOf(() -> store.delete(ended.record().id()));
        StoredSession again = store.newSession(SessionRecord.created(ended.record().id(), CLOCK.instant(), HALF_AN_HOUR),
                false);
        List<Recorded> writes = writesOf(() -> store.save(again, again.record()));
        assertAllUse(Durability.FSYNC_WAL, writes, 2);
        assertEquals(HALF_AN_HOUR.plusSeconds(60).plusSeconds(60).toMillis(), writes.get(0).ttlMillis(),
                "first tried as into an empty row");
        assertEquals(Long.MAX_VALUE, writes.get(1).ttlMillis(), "over the end marker");
        assertTrue(store.load(ended.record().id()).isPresent());
    }

    @Test
    void attributeWritesUseWriteDurability() {
        StoredSession session = created(null);
        session.attributes().put("cart", "book");
        assertAllUse(Durability.FSYNC_WAL, writesOf(() -> store.save(session, session.record())), 1);
    }

    @Test
    void touchesUseTouchDurabilityAsyncWalByDefault() {
        StoredSession session = created(null);
        CLOCK.advance(Duration.ofSeconds(61));
        assertAllUse(Durability.ASYNC_WAL,
                writesOf(() -> store.save(session, session.record().withLastAccessTime(CLOCK.instant()))), 1);
    }

    @Test
    void loginAndLogoutAreLifecycleWritesInTheirOrder() {
        StoredSession session = created(null);
        session.attributes().put("cart", "book");
        List<Recorded> login = writesOf(() -> store.save(session,
                session.record().withLogin(new SessionPrincipal("erin", List.of(), "FORM"))));
        assertAllUse(Durability.FSYNC_WAL, login, 2);
        assertEquals(settings.get(Setting.INDEX_TABLE), login.get(0).table(), "login order: the index entry first");

        List<Recorded> logout = writesOf(() -> store.save(session, session.record().withLogin(null)));
        assertAllUse(Durability.FSYNC_WAL, logout, 2);
        assertEquals(settings.get(Setting.TABLE), logout.get(0).table(), "logout order: the session first");
        assertTrue(logout.get(1).isDelete());
    }

    @Test
    void anIdChangeWritesTheNewRowBeforeDeletingTheOldOne() {
        StoredSession session = created("fay");
        List<Recorded> writes = writesOf(() -> store.changeId(session, session.record(), TestStores.newId()));
        // index entry of the new id, new row, old row ended (conditionally), old index entry deleted
        assertAllUse(Durability.FSYNC_WAL, writes, 4);
        assertEquals(List.of(false, false, true, true), writes.stream().map(Recorded::removes).toList());
    }

    @Test
    void invalidationAndRevocationAreDurableDeletes() {
        StoredSession session = created("gus");
        List<Recorded> invalidation = writesOf(() -> store.delete(session.record().id()));
        assertAllUse(Durability.FSYNC_WAL, invalidation, 2);
        assertTrue(invalidation.stream().allMatch(Recorded::removes));
        assertEquals(HALF_AN_HOUR.plusSeconds(60).plusSeconds(60).toMillis(), invalidation.get(0).ttlMillis(),
                "the end marker lives as long as the session's cells would have");

        created("hal");
        created("hal");
        List<Recorded> revocation = writesOf(() -> assertEquals(2, store.revokeAll("hal")));
        assertAllUse(Durability.FSYNC_WAL, revocation, 4);
        assertTrue(revocation.stream().allMatch(Recorded::removes));
    }

    @Test
    void pessimisticLeasesUseAsyncWalAndTheSaveGivesTheLeaseBackInItsOwnPut() {
        MutationRecorder recorder = new MutationRecorder();
        try (SessionStore pessimistic = TestStores.open(settings.toBuilder()
                .set(Setting.LOCKING_MODE, LockingMode.PESSIMISTIC).build(), CLOCK, recorder)) {
            String id = TestStores.create(pessimistic, CLOCK.instant(), HALF_AN_HOUR, Map.of()).record().id();
            StoredSession loaded = pessimistic.load(id).orElseThrow();
            loaded.attributes().put("n", 1);
            pessimistic.save(loaded, loaded.record());
            List<Recorded> writes = recorder.drain();
            EVERYTHING.addAll(writes);
            assertEquals(List.of(Durability.FSYNC_WAL, Durability.ASYNC_WAL, Durability.FSYNC_WAL),
                    writes.stream().map(Recorded::durability).toList());
            assertTrue(writes.get(2).touchesQualifier(HBaseSessionRows.LEASE));
        }
    }
}
