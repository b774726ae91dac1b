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
import org.apache.hadoop.hbase.client.Durability;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #3, point 6: the durability of every write, read from the mutations the store handed to the
 * HBase client (on a local file system SYNC_WAL and ASYNC_WAL cost the same, so timing would show
 * nothing). Attribute writes are configured FSYNC_WAL here so that each kind of write is distinct.
 */
@ExtendWith(HBaseExtension.class)
class DurabilityTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static final MutationRecorder RECORDER = new MutationRecorder();
    private static final List<Recorded> EVERYTHING = new ArrayList<>();
    private static SessionStore store;
    private static StoreSettings settings;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace) {
        settings = TestStores.settings(server, namespace).writeDurability(WriteDurability.FSYNC_WAL).build();
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

    private static SessionRecord.Builder newSession() {
        return SessionRecord.builder(TestStores.newId(), CLOCK.instant()).maxInactiveInterval(Duration.ofMinutes(30));
    }

    private static LoadedSession created(SessionRecord.Builder session) {
        LoadedSession[] created = new LoadedSession[1];
        writesOf(() -> created[0] = store.create(session.build()));
        return created[0];
    }

    @Test
    void createUsesSyncWalForTheSessionAndItsIndexEntry() {
        List<Recorded> writes = writesOf(() -> store.create(newSession().principal("dora").build()));
        assertAllUse(Durability.SYNC_WAL, writes, 2);
        Recorded index = writes.get(0);
        Recorded session = writes.get(1);
        assertEquals(settings.indexTable(), index.table(), "login order: the index entry first");
        assertEquals(Long.MAX_VALUE, index.ttlMillis(), "index entries have no cell TTL");
        assertEquals(settings.table(), session.table());
        assertEquals(Duration.ofMinutes(30).plusSeconds(60).plusSeconds(60).toMillis(), session.ttlMillis());
    }

    @Test
    void attributeWritesUseWriteDurability() {
        LoadedSession loaded = created(newSession());
        assertAllUse(Durability.FSYNC_WAL,
                writesOf(() -> store.save(loaded, loaded.record().toBuilder().attribute("cart", "book").build())), 1);
    }

    @Test
    void touchesUseTouchDurabilityAsyncWalByDefault() {
        LoadedSession loaded = created(newSession());
        CLOCK.advance(Duration.ofSeconds(61));
        assertAllUse(Durability.ASYNC_WAL, writesOf(() -> store.touch(loaded, CLOCK.instant())), 1);
    }

    @Test
    void principalChangesUseSyncWal() {
        LoadedSession anonymous = created(newSession().attribute("cart", "book"));
        LoadedSession[] loggedIn = new LoadedSession[1];
        List<Recorded> login = writesOf(() -> loggedIn[0] = store.save(anonymous, anonymous.record().withPrincipal("erin"))
                .session().orElseThrow());
        assertAllUse(Durability.SYNC_WAL, login, 2);
        assertEquals(settings.indexTable(), login.get(0).table(), "login order: the index entry first");

        List<Recorded> logout = writesOf(() -> store.save(loggedIn[0], loggedIn[0].record().withPrincipal(null)));
        assertAllUse(Durability.SYNC_WAL, logout, 2);
        assertEquals(settings.table(), logout.get(0).table(), "logout order: the session first");
        assertTrue(logout.get(1).isDelete());
    }

    @Test
    void idChangeUsesSyncWal() {
        LoadedSession loaded = created(newSession().principal("fay"));
        List<Recorded> writes = writesOf(() -> store.changeId(loaded, loaded.record(), TestStores.newId()));
        // index entry of the new id, new row, old row deleted, old index entry deleted
        assertAllUse(Durability.SYNC_WAL, writes, 4);
        assertEquals(List.of(false, false, true, true), writes.stream().map(Recorded::isDelete).toList());
    }

    @Test
    void invalidationUsesSyncWal() {
        LoadedSession loaded = created(newSession().principal("gus"));
        List<Recorded> writes = writesOf(() -> store.delete(loaded.record().id()));
        assertAllUse(Durability.SYNC_WAL, writes, 2);
        assertTrue(writes.stream().allMatch(Recorded::isDelete));
    }

    @Test
    void revocationUsesSyncWal() {
        created(newSession().principal("hal"));
        created(newSession().principal("hal"));
        List<Recorded> writes = writesOf(() -> assertEquals(2, store.revokeAll("hal")));
        assertAllUse(Durability.SYNC_WAL, writes, 4);
        assertTrue(writes.stream().allMatch(Recorded::isDelete));
    }

    @Test
    void pessimisticLeasesUseAsyncWalAndTheSaveGivesTheLeaseBackInItsOwnPut(EmbeddedHBase server, TestNamespace namespace) {
        MutationRecorder recorder = new MutationRecorder();
        try (SessionStore pessimistic = TestStores.open(settings.toBuilder().lockingMode(LockingMode.PESSIMISTIC).build(),
                CLOCK, recorder)) {
            String id = pessimistic.create(newSession().build()).record().id();
            LoadedSession loaded = pessimistic.load(id).orElseThrow();
            pessimistic.save(loaded, loaded.record().toBuilder().attribute("n", 1).build());
            List<Recorded> writes = recorder.drain();
            EVERYTHING.addAll(writes);
            assertEquals(List.of(Durability.SYNC_WAL, Durability.ASYNC_WAL, Durability.FSYNC_WAL),
                    writes.stream().map(Recorded::durability).toList());
            assertTrue(writes.get(2).touchesQualifier(SessionTable.LEASE));
        }
    }
}
