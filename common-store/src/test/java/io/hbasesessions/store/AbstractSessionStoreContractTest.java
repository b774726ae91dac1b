package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionStore} must do, whatever runs it. Subclasses provide the store and hooks
 * that look at HBase directly, past the store, so each test checks what is really stored.
 */
public abstract class AbstractSessionStoreContractTest {

    /** Every id a test of this class used, to search the stored bytes for. */
    private static final Set<String> USED_IDS = ConcurrentHashMap.newKeySet();
    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);

    /** The store under test; its clock is {@link #clock()}, its touch interval the default (60 s). */
    protected abstract SessionStore store();

    /** A second store on the same tables with another key scope (another web application). */
    protected abstract SessionStore storeInOtherScope();

    protected abstract MutableClock clock();

    /** The cells of the session's row as HBase holds them, by qualifier; empty when there is no row. */
    protected abstract Map<String, byte[]> rawCells(SessionStore store, String sessionId);

    /**
     * Every row key, qualifier and value a raw scan (every version still kept, delete markers included) finds
     * in the sessions table, the user index table and the expiry index (the store runs with expiryEvents).
     */
    protected abstract StoredBytes everythingStored();

    /** What {@link #everythingStored} found: the byte arrays, how many cells were older versions, the expiry index's rows. */
    protected record StoredBytes(List<byte[]> arrays, int olderVersions, int expiryIndexRows) {
    }

    /**
     * The row holds no session: nothing, or the end marker an ended session leaves (a one-byte state cell, its
     * version, the lease given back), which keeps nothing of the session.
     */
    protected void assertNoSessionStored(String sessionId) {
        Map<String, byte[]> cells = rawCells(store(), sessionId);
        if (!cells.isEmpty()) {
            assertEquals(Set.of("state", "ver", "lease"), cells.keySet(), "the cells of an ended session's row");
            assertArrayEquals(HBaseSessionRows.ENDED, cells.get("state"), "an ended session's state cell is its end marker");
            assertEquals(Bytes.SIZEOF_LONG, cells.get("ver").length, "an ended session's row keeps its version");
            assertEquals(0, cells.get("lease").length, "an ended session's lease is given back");
        }
    }

    protected StoredSession create(SessionStore in, Map<String, ?> attributes) {
        return create(in, attributes, null);
    }

    protected StoredSession create(SessionStore in, Map<String, ?> attributes, String user) {
        StoredSession session = in.newSession(newRecord(HALF_AN_HOUR), false);
        session.attributes().putAll(attributes);
        in.save(session, user == null ? session.record() : session.record().withLogin(login(user)));
        return session;
    }

    protected SessionRecord newRecord(Duration maxInactive) {
        String id = TestStores.newId();
        USED_IDS.add(id);
        return SessionRecord.created(id, clock().instant(), maxInactive);
    }

    protected static SessionPrincipal login(String user) {
        return new SessionPrincipal(user, List.of("customer"), "FORM");
    }

    protected static String newUser() {
        return "user-" + TestStores.newId().substring(0, 8);
    }

    private StoredSession load(String id) {
        return store().load(id).orElseThrow(() -> new AssertionError("session not found"));
    }

    @Test
    void createdSessionLoadsBackWithEveryField() {
        SessionRecord record = newRecord(HALF_AN_HOUR).withLogin(login("alice"));
        StoredSession created = store().newSession(record, false);
        created.attributes().putAll(Map.of("user", "Alice", "cart", new ArrayList<>(List.of("book", "pen")), "visits", 3));
        assertEquals(SaveResult.WRITTEN, store().save(created, record));

        StoredSession loaded = load(record.id());
        assertEquals(record, loaded.record());
        assertEquals(Map.of("user", "Alice", "cart", List.of("book", "pen"), "visits", 3), TestStores.attributesOf(loaded));
        assertEquals(Optional.of("alice"), loaded.indexedUser());
        assertEquals(Set.of(record.id()), store().liveAmong(List.of(record.id(), TestStores.newId())));
        assertEquals(Set.of("state", "ver"), rawCells(store(), record.id()).keySet());
    }

    @Test
    void aNewSessionWhoseIdIsTakenIsNotStoredOverTheOther() {
        StoredSession first = create(store(), Map.of("who", "first"));
        StoredSession second = store().newSession(SessionRecord.created(first.record().id(), clock().instant(),
                HALF_AN_HOUR), false);
        second.attributes().put("who", "second");

        assertThrows(SessionAlreadyExistsException.class, () -> store().save(second, second.record()));
        assertEquals("first", load(first.record().id()).attributes().get("who"));
    }

    @Test
    void aNewSessionReplacesAnEndedOneWithTheSameId() {
        StoredSession old = store().newSession(newRecord(Duration.ofMinutes(1)), false);
        old.attributes().put("who", "old");
        store().save(old, old.record());
        clock().advance(Duration.ofMinutes(2));

        StoredSession fresh = store().newSession(SessionRecord.created(old.record().id(), clock().instant(),
                HALF_AN_HOUR), false);
        fresh.attributes().put("who", "new");
        store().save(fresh, fresh.record());
        assertEquals("new", load(old.record().id()).attributes().get("who"));
    }

    @Test
    void aTransientSessionIsNeverStored() {
        StoredSession session = store().newSession(newRecord(HALF_AN_HOUR), true);
        session.attributes().put("cart", "book");
        assertEquals(SaveResult.UNCHANGED, store().save(session, session.record()));
        assertTrue(rawCells(store(), session.record().id()).isEmpty());
    }

    @Test
    void unknownAndImpossibleIdsFindNothing() {
        String id = TestStores.newId();
        assertTrue(store().load(id).isEmpty());
        assertEquals(Set.of(), store().liveAmong(List.of(id)));
        assertFalse(store().delete(id));
        for (String hostile : new String[] {null, "", "a.b", "x".repeat(300), "id with spaces", "\u0000", "é"}) {
            assertTrue(store().load(hostile).isEmpty(), String.valueOf(hostile));
            assertFalse(store().delete(hostile));
        }
    }

    @Test
    void saveWritesChangedAndRemovedAttributes() {
        StoredSession session = create(store(), Map.of("keep", "k", "drop", "d", "change", 1));
        StoredSession loaded = load(session.record().id());
        loaded.attributes().remove("drop");
        loaded.attributes().put("change", 2);
        loaded.attributes().put("add", List.of("x"));

        assertEquals(SaveResult.WRITTEN, store().save(loaded, loaded.record()));
        assertEquals(Map.of("keep", "k", "change", 2, "add", List.of("x")),
                TestStores.attributesOf(load(session.record().id())));
    }

    @Test
    void aTouchAfterTheIntervalMovesTheLastAccessAndKeepsAttributes() {
        StoredSession session = create(store(), Map.of("cart", "book"));
        clock().advance(Duration.ofSeconds(61));
        SessionRecord accessed = session.record().withLastAccessTime(clock().instant());

        assertEquals(SaveResult.TOUCHED, store().save(session, accessed));
        StoredSession reloaded = load(session.record().id());
        assertEquals(accessed.lastAccessTime(), reloaded.record().lastAccessTime());
        assertEquals(Map.of("cart", "book"), TestStores.attributesOf(reloaded));
    }

    @Test
    void deleteRemovesTheSessionAndItsIndexEntry() {
        String user = newUser();
        StoredSession session = create(store(), Map.of(), user);
        assertEquals(1, store().findByUser(user).size());

        assertTrue(store().delete(session.record().id()));
        assertTrue(store().load(session.record().id()).isEmpty());
        assertNoSessionStored(session.record().id());
        assertTrue(store().findByUser(user).isEmpty());
        assertFalse(store().delete(session.record().id()));
    }

    @Test
    void aSaveAfterDeleteDoesNotBringTheSessionBack() {
        StoredSession session = create(store(), Map.of());
        store().delete(session.record().id());
        session.attributes().put("late", "write");

        assertEquals(SaveResult.GONE, store().save(session, session.record()));
        assertNoSessionStored(session.record().id());
    }

    @Test
    void changeIdMovesTheSessionAndDeletesTheOldRow() {
        String user = newUser();
        StoredSession session = create(store(), Map.of("cart", "book"), user);
        String oldId = session.record().id();
        String newId = newRecord(HALF_AN_HOUR).id();
        session.attributes().put("step", "login");

        assertEquals(SaveResult.WRITTEN, store().changeId(session, session.record(), newId));
        assertEquals(newId, session.record().id());
        assertTrue(store().load(oldId).isEmpty());
        assertNoSessionStored(oldId);
        StoredSession reloaded = load(newId);
        assertEquals(Map.of("cart", "book", "step", "login"), TestStores.attributesOf(reloaded));
        List<IndexedSession> indexed = store().findByUser(user);
        assertEquals(List.of(SessionKey.forNewSession(store().keyScope(), newId).hex()),
                indexed.stream().map(IndexedSession::sessionKeyHex).toList());
    }

    /** Issue #10 item 5: rotating the id of a session revoked meanwhile does not resurrect it under the new id. */
    @Test
    void changeIdOfASessionRevokedMeanwhileBringsNothingBack() {
        String user = newUser();
        StoredSession session = create(store(), Map.of("cart", "book"), user);
        assertEquals(1, store().revokeAll(user));
        String newId = newRecord(HALF_AN_HOUR).id();

        assertEquals(SaveResult.GONE, store().changeId(session, session.record(), newId));
        assertTrue(store().load(newId).isEmpty());
        assertNoSessionStored(newId);
        assertTrue(store().findByUser(user).isEmpty());
    }

    @Test
    void changeIdCarriesOverWhatAnotherRequestWroteMeanwhile() {
        StoredSession session = create(store(), Map.of("cart", "book"));
        StoredSession otherTab = load(session.record().id());
        otherTab.attributes().put("theme", "dark");
        store().save(otherTab, otherTab.record());
        String newId = newRecord(HALF_AN_HOUR).id();

        assertEquals(SaveResult.WRITTEN, store().changeId(session, session.record(), newId));
        assertEquals(Map.of("cart", "book", "theme", "dark"), TestStores.attributesOf(load(newId)));
    }

    /** A login in the request that created the session renames it before anything is stored. */
    @Test
    void aNewSessionRenamedBeforeItsFirstSaveIsStoredUnderTheNewIdWithItsAttributes() {
        StoredSession session = store().newSession(newRecord(HALF_AN_HOUR), false);
        session.attributes().put("cart", "book");
        String firstId = session.record().id();
        String renamed = TestStores.newId();

        assertEquals(SaveResult.WRITTEN, store().save(session, session.record().withId(renamed)));

        assertTrue(store().load(firstId).isEmpty());
        assertEquals(Map.of("cart", "book"), TestStores.attributesOf(load(renamed)));
        assertEquals(renamed, session.record().id());
    }

    @Test
    void aStoredSessionIsNotMovedBySave() {
        StoredSession session = create(store(), Map.of("cart", "book"));
        assertThrows(IllegalArgumentException.class,
                () -> store().save(session, session.record().withId(TestStores.newId())));
    }

    @Test
    void changeIdToATakenIdFailsAndKeepsBothSessions() {
        StoredSession first = create(store(), Map.of("who", "first"));
        StoredSession second = create(store(), Map.of("who", "second"));
        String firstId = first.record().id();

        assertThrows(SessionAlreadyExistsException.class,
                () -> store().changeId(first, first.record(), second.record().id()));
        assertEquals("first", load(firstId).attributes().get("who"));
        assertEquals("second", load(second.record().id()).attributes().get("who"));
    }

    @Test
    void concurrentSavesOfDifferentAttributesBothSurvive() {
        String id = create(store(), Map.of("base", 0)).record().id();
        StoredSession tabA = load(id);
        StoredSession tabB = load(id);
        tabA.attributes().put("a", "A");
        tabB.attributes().put("b", "B");

        assertEquals(SaveResult.WRITTEN, store().save(tabA, tabA.record()));
        assertEquals(SaveResult.MERGED, store().save(tabB, tabB.record()));
        Map<String, Object> expected = Map.of("base", 0, "a", "A", "b", "B");
        assertEquals(expected, TestStores.attributesOf(tabB));
        assertEquals(expected, TestStores.attributesOf(load(id)));
    }

    /** Issue #10 item 4: a request that only read an attribute never writes it back over another's change. */
    @Test
    void aMergeNeverRevertsAnAttributeThisRequestOnlyRead() {
        String id = create(store(), Map.of("prefs", new java.util.HashMap<>(Map.of("theme", 1)), "cart", "book")).record().id();
        StoredSession reader = load(id);
        assertEquals(Map.of("theme", 1), reader.attributes().get("prefs"));
        StoredSession writer = load(id);
        writer.attributes().put("prefs", new java.util.HashMap<>(Map.of("theme", 99)));
        store().save(writer, writer.record());
        reader.attributes().put("cart", "pen");

        assertEquals(SaveResult.MERGED, store().save(reader, reader.record()));
        assertEquals(Map.of("theme", 99), load(id).attributes().get("prefs"));
        assertEquals("pen", load(id).attributes().get("cart"));
    }

    @Test
    void findByUserListsLiveSessionsNewestFirst() {
        String user = newUser();
        StoredSession older = create(store(), Map.of(), user);
        clock().advance(Duration.ofSeconds(5));
        StoredSession newer = create(store(), Map.of(), user);
        StoredSession expiring = store().newSession(newRecord(Duration.ofSeconds(10)).withLogin(login(user)), false);
        store().save(expiring, expiring.record());
        clock().advance(Duration.ofSeconds(11));

        List<IndexedSession> found = store().findByUser(user);
        assertEquals(List.of(SessionKey.forNewSession(store().keyScope(), newer.record().id()).hex(),
                SessionKey.forNewSession(store().keyScope(), older.record().id()).hex()),
                found.stream().map(IndexedSession::sessionKeyHex).toList());
        assertEquals(newer.record().creationTime(), found.get(0).creationTime());
        assertTrue(store().findByUser(user + "x").isEmpty());
    }

    @Test
    void loginAndLogoutKeepTheIndexInStep() {
        String user = newUser();
        StoredSession session = create(store(), Map.of());
        store().save(session, session.record().withLogin(login(user)));
        assertEquals(1, store().findByUser(user).size());
        assertEquals(Optional.of(login(user)), load(session.record().id()).record().login());

        store().save(session, session.record().withLogin(null));
        assertTrue(store().findByUser(user).isEmpty());
        assertTrue(load(session.record().id()).record().login().isEmpty());
    }

    @Test
    void revokeAllDeletesEverySessionOfTheUserInEveryScope() {
        String user = newUser();
        StoredSession here = create(store(), Map.of(), user);
        StoredSession there = create(storeInOtherScope(), Map.of(), user);
        StoredSession someoneElse = create(store(), Map.of(), newUser());

        assertEquals(2, store().revokeAll(user));
        assertTrue(store().load(here.record().id()).isEmpty());
        assertTrue(storeInOtherScope().load(there.record().id()).isEmpty());
        assertTrue(store().load(someoneElse.record().id()).isPresent());
        assertTrue(store().findByUser(user).isEmpty());
    }

    @Test
    void scopesKeepSessionsWithTheSameIdApart() {
        StoredSession shop = create(store(), Map.of("app", "shop"));
        String id = shop.record().id();
        assertTrue(storeInOtherScope().load(id).isEmpty());

        StoredSession blog = storeInOtherScope().newSession(SessionRecord.created(id, clock().instant(), HALF_AN_HOUR),
                false);
        blog.attributes().put("app", "blog");
        storeInOtherScope().save(blog, blog.record());
        assertEquals("shop", load(id).attributes().get("app"));
        assertEquals("blog", storeInOtherScope().load(id).orElseThrow().attributes().get("app"));
    }

    @Test
    void saveWholeWritesAStateItDidNotReadButNeverResurrects() {
        SessionRecord record = newRecord(HALF_AN_HOUR);
        assertEquals(SaveResult.WRITTEN, store().saveWhole(record, Map.of("cart", "book"), false));
        assertEquals(SaveResult.WRITTEN, store().saveWhole(record, Map.of("cart", "pen", "x", 1), true));
        assertEquals(Map.of("cart", "pen", "x", 1), TestStores.attributesOf(load(record.id())));
        assertEquals(SaveResult.UNCHANGED, store().saveWhole(record, Map.of("cart", "pen", "x", 1), true));

        store().delete(record.id());
        assertEquals(SaveResult.GONE, store().saveWhole(record, Map.of("cart", "pen"), true));
        assertNoSessionStored(record.id());
    }

    @Test
    void countersCountWhatHappened() {
        StoreCounters before = store().counters();
        StoredSession session = create(store(), Map.of("a", 1));
        load(session.record().id());
        store().load(TestStores.newId());
        session.attributes().put("a", 2);
        store().save(session, session.record());
        store().delete(session.record().id());

        StoreCounters after = store().counters();
        assertEquals(1, after.get(StoreCounter.CREATES) - before.get(StoreCounter.CREATES));
        assertEquals(2, after.get(StoreCounter.LOADS) - before.get(StoreCounter.LOADS));
        assertEquals(1, after.get(StoreCounter.LOAD_MISSES) - before.get(StoreCounter.LOAD_MISSES));
        assertEquals(1, after.get(StoreCounter.FULL_WRITES) - before.get(StoreCounter.FULL_WRITES));
        assertEquals(1, after.get(StoreCounter.DELETES) - before.get(StoreCounter.DELETES));
        assertTrue(after.get(StoreCounter.BYTES_WRITTEN) > before.get(StoreCounter.BYTES_WRITTEN));
    }

    /**
     * Every operation round-trips, and no raw session id is stored anywhere: not in any version of any cell of
     * the sessions table or either index, nor the id an id change moved the session to.
     */
    @Test
    void everyOperationRoundTripsAndNoRawIdIsStoredAnywhere() {
        String user = newUser();
        StoredSession session = create(store(), Map.of("cart", "book"), user);
        StoredSession loaded = load(session.record().id());
        loaded.attributes().put("cart", "pen");
        store().save(loaded, loaded.record());
        clock().advance(Duration.ofSeconds(61));
        store().save(loaded, loaded.record().withLastAccessTime(clock().instant()));
        String movedId = newRecord(HALF_AN_HOUR).id();
        store().changeId(loaded, loaded.record(), movedId);
        assertEquals(1, store().findByUser(user).size());
        create(storeInOtherScope(), Map.of(), user);
        String deletedId = create(store(), Map.of()).record().id();
        assertTrue(store().delete(deletedId));
        assertEquals("pen", load(movedId).attributes().get("cart"));
        create(store(), Map.of("left", "behind"), newUser());

        StoredBytes stored = everythingStored();
        assertTrue(stored.olderVersions() > 0, "the search saw no older version of any cell");
        assertTrue(stored.expiryIndexRows() > 0, "the search saw no expiry index entry");
        for (String usedId : USED_IDS) {
            assertNotStored(usedId, stored.arrays());
        }
    }

    /** The id's UTF-8 bytes, and all but its last character (Kryo marks the last byte of an ASCII string). */
    private static void assertNotStored(String id, List<byte[]> stored) {
        byte[] whole = id.getBytes(StandardCharsets.UTF_8);
        byte[] prefix = id.substring(0, id.length() - 1).getBytes(StandardCharsets.UTF_8);
        for (byte[] bytes : stored) {
            if (Bytes.indexOf(bytes, whole) >= 0 || Bytes.indexOf(bytes, prefix) >= 0) {
                fail("A raw session id is stored in HBase");
            }
        }
    }

    @Test
    void versionsIncreaseWithEveryWrite() {
        StoredSession session = create(store(), Map.of());
        byte[] first = rawCells(store(), session.record().id()).get("ver");
        session.attributes().put("a", 1);
        store().save(session, session.record());
        byte[] second = rawCells(store(), session.record().id()).get("ver");
        assertNotEquals(Bytes.toLong(first), Bytes.toLong(second));
        assertArrayEquals(Bytes.toBytes(Bytes.toLong(first) + 1), second);
    }
}
