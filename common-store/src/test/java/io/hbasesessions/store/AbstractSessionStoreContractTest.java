package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hbasesessions.store.SaveResult.Outcome;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

    /** The store under test; its clock is {@link #clock()}, its touch interval the default (60 s). */
    protected abstract SessionStore store();

    /** A second store on the same tables with another key scope (another web application). */
    protected abstract SessionStore storeInOtherScope();

    protected abstract MutableClock clock();

    /** The cells of the session's row as HBase holds them, by qualifier; empty when there is no row. */
    protected abstract Map<String, byte[]> rawCells(SessionStore store, String sessionId);

    /** Every row key, qualifier and value in the sessions table and the principal index table. */
    protected abstract List<byte[]> everyStoredByteArray();

    protected SessionRecord.Builder newSession() {
        String id = TestStores.newId();
        USED_IDS.add(id);
        return SessionRecord.builder(id, clock().instant()).maxInactiveInterval(Duration.ofMinutes(30));
    }

    protected static String newPrincipal() {
        return "user-" + TestStores.newId().substring(0, 8);
    }

    @Test
    void createdSessionLoadsBackWithEveryField() {
        SessionRecord created = newSession().principal("alice").extra("jetty.cookieSetTime", "1700000000000")
                .attribute("user", "Alice").attribute("cart", new ArrayList<>(List.of("book", "pen")))
                .attribute("visits", 3).build();
        LoadedSession stored = store().create(created);

        LoadedSession loaded = store().load(created.id()).orElseThrow();
        SessionRecord record = loaded.record();
        assertEquals(created.id(), record.id());
        assertEquals(created.creationTime(), record.creationTime());
        assertEquals(created.lastAccessTime(), record.lastAccessTime());
        assertEquals(created.maxInactiveInterval(), record.maxInactiveInterval());
        assertEquals(created.principal(), record.principal());
        assertEquals(created.extras(), record.extras());
        assertEquals(created.attributes(), record.attributes());
        assertEquals(stored.version(), loaded.version());
        assertTrue(store().exists(created.id()));
        assertEquals(Set.of("state", "ver"), rawCells(store(), created.id()).keySet());
    }

    @Test
    void createRefusesAnIdThatIsTaken() {
        SessionRecord first = newSession().attribute("who", "first").build();
        store().create(first);
        SessionRecord second = SessionRecord.builder(first.id(), clock().instant()).attribute("who", "second").build();

        assertThrows(SessionAlreadyExistsException.class, () -> store().create(second));
        assertEquals("first", store().load(first.id()).orElseThrow().record().attributes().get("who"));
    }

    @Test
    void createReplacesAnIdleExpiredSessionWithTheSameId() {
        SessionRecord old = newSession().maxInactiveInterval(Duration.ofMinutes(1)).attribute("who", "old").build();
        store().create(old);
        clock().advance(Duration.ofMinutes(2));

        SessionRecord fresh = SessionRecord.builder(old.id(), clock().instant()).attribute("who", "new").build();
        store().create(fresh);
        assertEquals("new", store().load(old.id()).orElseThrow().record().attributes().get("who"));
    }

    @Test
    void loadAndExistsOfAnUnknownIdFindNothing() {
        String id = newSession().build().id();
        assertTrue(store().load(id).isEmpty());
        assertFalse(store().exists(id));
        assertFalse(store().delete(id));
        assertTrue(rawCells(store(), id).isEmpty());
    }

    @Test
    void saveWritesChangedAndRemovedAttributes() {
        LoadedSession loaded = store().create(newSession().attribute("keep", "k").attribute("drop", "d")
                .attribute("change", 1).build());
        SessionRecord changed = loaded.record().toBuilder().attribute("drop", null).attribute("change", 2)
                .attribute("add", List.of("x")).build();

        SaveResult result = store().save(loaded, changed);
        assertEquals(Outcome.WRITTEN, result.outcome());
        assertEquals(loaded.version() + 1, result.session().orElseThrow().version());
        assertEquals(Map.of("keep", "k", "change", 2, "add", List.of("x")),
                store().load(changed.id()).orElseThrow().record().attributes());
    }

    @Test
    void touchAfterTheIntervalMovesLastAccessAndKeepsAttributes() {
        LoadedSession loaded = store().create(newSession().attribute("cart", "book").build());
        clock().advance(Duration.ofSeconds(61));
        Instant accessed = clock().instant();

        assertEquals(Outcome.TOUCHED, store().touch(loaded, accessed).outcome());
        LoadedSession reloaded = store().load(loaded.record().id()).orElseThrow();
        assertEquals(accessed, reloaded.record().lastAccessTime());
        assertEquals(Map.of("cart", "book"), reloaded.record().attributes());
    }

    @Test
    void deleteRemovesTheSessionAndItsIndexEntry() {
        String principal = newPrincipal();
        SessionRecord session = newSession().principal(principal).build();
        store().create(session);
        assertEquals(1, store().findByPrincipal(principal).size());

        assertTrue(store().delete(session.id()));
        assertTrue(store().load(session.id()).isEmpty());
        assertTrue(rawCells(store(), session.id()).isEmpty());
        assertTrue(store().findByPrincipal(principal).isEmpty());
        assertFalse(store().delete(session.id()));
    }

    @Test
    void saveAfterDeleteDoesNotBringTheSessionBack() {
        LoadedSession loaded = store().create(newSession().build());
        store().delete(loaded.record().id());

        SaveResult result = store().save(loaded, loaded.record().toBuilder().attribute("late", "write").build());
        assertEquals(Outcome.GONE, result.outcome());
        assertTrue(rawCells(store(), loaded.record().id()).isEmpty());
    }

    @Test
    void changeIdMovesTheSessionAndDeletesTheOldRow() {
        String principal = newPrincipal();
        LoadedSession loaded = store().create(newSession().principal(principal).attribute("cart", "book").build());
        String newId = newSession().build().id();
        SessionRecord current = loaded.record().toBuilder().attribute("step", "login").build();

        LoadedSession moved = store().changeId(loaded, current, newId);
        assertEquals(newId, moved.record().id());
        assertTrue(store().load(loaded.record().id()).isEmpty());
        assertTrue(rawCells(store(), loaded.record().id()).isEmpty());
        SessionRecord reloaded = store().load(newId).orElseThrow().record();
        assertEquals(Map.of("cart", "book", "step", "login"), reloaded.attributes());
        assertEquals(loaded.record().creationTime(), reloaded.creationTime());
        List<IndexedSession> indexed = store().findByPrincipal(principal);
        assertEquals(1, indexed.size());
        assertEquals(SessionKey.forNewSession(store().keyScope(), newId).hex(), indexed.get(0).sessionKeyHex());
    }

    @Test
    void changeIdToATakenIdFailsAndKeepsBothSessions() {
        LoadedSession first = store().create(newSession().attribute("who", "first").build());
        LoadedSession second = store().create(newSession().attribute("who", "second").build());

        assertThrows(SessionAlreadyExistsException.class,
                () -> store().changeId(first, first.record(), second.record().id()));
        assertEquals("first", store().load(first.record().id()).orElseThrow().record().attributes().get("who"));
        assertEquals("second", store().load(second.record().id()).orElseThrow().record().attributes().get("who"));
    }

    @Test
    void concurrentSavesOfDifferentAttributesBothSurvive() {
        String id = store().create(newSession().attribute("base", 0).build()).record().id();
        LoadedSession tabA = store().load(id).orElseThrow();
        LoadedSession tabB = store().load(id).orElseThrow();

        assertEquals(Outcome.WRITTEN, store().save(tabA, tabA.record().toBuilder().attribute("a", "A").build()).outcome());
        SaveResult second = store().save(tabB, tabB.record().toBuilder().attribute("b", "B").build());
        assertEquals(Outcome.MERGED, second.outcome());
        Map<String, Object> expected = Map.of("base", 0, "a", "A", "b", "B");
        assertEquals(expected, second.session().orElseThrow().record().attributes());
        assertEquals(expected, store().load(id).orElseThrow().record().attributes());
    }

    @Test
    void findByPrincipalListsLiveSessionsNewestFirst() {
        String principal = newPrincipal();
        SessionRecord older = newSession().principal(principal).build();
        store().create(older);
        clock().advance(Duration.ofSeconds(5));
        SessionRecord newer = newSession().principal(principal).build();
        store().create(newer);
        SessionRecord expiring = newSession().principal(principal).maxInactiveInterval(Duration.ofSeconds(10)).build();
        store().create(expiring);
        clock().advance(Duration.ofSeconds(11));

        List<IndexedSession> found = store().findByPrincipal(principal);
        assertEquals(List.of(SessionKey.forNewSession(store().keyScope(), newer.id()).hex(),
                SessionKey.forNewSession(store().keyScope(), older.id()).hex()),
                found.stream().map(IndexedSession::sessionKeyHex).toList());
        assertEquals(newer.creationTime(), found.get(0).creationTime());
        assertTrue(store().findByPrincipal(principal + "x").isEmpty());
    }

    @Test
    void loginAndLogoutKeepTheIndexInStep() {
        String principal = newPrincipal();
        LoadedSession anonymous = store().create(newSession().build());
        SaveResult login = store().save(anonymous, anonymous.record().withPrincipal(principal));
        assertEquals(1, store().findByPrincipal(principal).size());

        LoadedSession loggedIn = login.session().orElseThrow();
        store().save(loggedIn, loggedIn.record().withPrincipal(null));
        assertTrue(store().findByPrincipal(principal).isEmpty());
        assertTrue(store().load(anonymous.record().id()).orElseThrow().record().principal().isEmpty());
    }

    @Test
    void revokeAllDeletesEverySessionOfThePrincipalInEveryScope() {
        String principal = newPrincipal();
        SessionRecord here = newSession().principal(principal).build();
        SessionRecord there = newSession().principal(principal).build();
        SessionRecord someoneElse = newSession().principal(newPrincipal()).build();
        store().create(here);
        storeInOtherScope().create(there);
        store().create(someoneElse);

        assertEquals(2, store().revokeAll(principal));
        assertTrue(store().load(here.id()).isEmpty());
        assertTrue(storeInOtherScope().load(there.id()).isEmpty());
        assertTrue(store().load(someoneElse.id()).isPresent());
        assertTrue(store().findByPrincipal(principal).isEmpty());
    }

    @Test
    void scopesKeepSessionsWithTheSameIdApart() {
        SessionRecord session = newSession().attribute("app", "shop").build();
        store().create(session);
        assertTrue(storeInOtherScope().load(session.id()).isEmpty());

        storeInOtherScope().create(SessionRecord.builder(session.id(), clock().instant()).attribute("app", "blog").build());
        assertEquals("shop", store().load(session.id()).orElseThrow().record().attributes().get("app"));
        assertEquals("blog", storeInOtherScope().load(session.id()).orElseThrow().record().attributes().get("app"));
    }

    @Test
    void countersCountWhatHappened() {
        StoreCounters before = store().counters();
        LoadedSession loaded = store().create(newSession().attribute("a", 1).build());
        store().load(loaded.record().id());
        store().load(newSession().build().id());
        store().save(loaded, loaded.record().toBuilder().attribute("a", 2).build());
        store().delete(loaded.record().id());

        StoreCounters after = store().counters();
        assertEquals(1, after.creates() - before.creates());
        assertEquals(2, after.loads() - before.loads());
        assertEquals(1, after.loadMisses() - before.loadMisses());
        assertEquals(1, after.fullWrites() - before.fullWrites());
        assertEquals(1, after.deletes() - before.deletes());
        assertTrue(after.bytesWritten() > before.bytesWritten());
    }

    /** Issue #3, point 1: every operation round-trips, and no raw session id is stored anywhere. */
    @Test
    void everyOperationRoundTripsAndNoRawIdIsStoredAnywhere() {
        String principal = newPrincipal();
        LoadedSession created = store().create(newSession().principal(principal).attribute("cart", "book").build());
        String id = created.record().id();
        LoadedSession loaded = store().load(id).orElseThrow();
        LoadedSession saved = store().save(loaded, loaded.record().toBuilder().attribute("cart", "pen").build())
                .session().orElseThrow();
        clock().advance(Duration.ofSeconds(61));
        LoadedSession touched = store().touch(saved, clock().instant()).session().orElseThrow();
        String movedId = newSession().build().id();
        store().changeId(touched, touched.record(), movedId);
        assertEquals(1, store().findByPrincipal(principal).size());
        storeInOtherScope().create(newSession().principal(principal).build());
        String deletedId = store().create(newSession().build()).record().id();
        assertTrue(store().delete(deletedId));
        assertEquals("pen", store().load(movedId).orElseThrow().record().attributes().get("cart"));
        assertTrue(store().exists(movedId));
        store().create(newSession().principal(newPrincipal()).attribute("left", "behind").build());

        List<byte[]> stored = everyStoredByteArray();
        assertFalse(stored.isEmpty());
        for (String usedId : USED_IDS) {
            assertNotStored(usedId, stored);
        }
    }

    /** The id's UTF-8 bytes, and all but its last character (Kryo marks the last byte of an ASCII string). */
    private static void assertNotStored(String id, List<byte[]> stored) {
        byte[] whole = id.getBytes(StandardCharsets.UTF_8);
        byte[] prefix = id.substring(0, id.length() - 1).getBytes(StandardCharsets.UTF_8);
        for (byte[] bytes : stored) {
            if (contains(bytes, whole) || contains(bytes, prefix)) {
                fail("A raw session id is stored in HBase");
            }
        }
    }

    static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    @Test
    void versionsIncreaseWithEveryWrite() {
        LoadedSession v1 = store().create(newSession().build());
        LoadedSession v2 = store().save(v1, v1.record().toBuilder().attribute("a", 1).build()).session().orElseThrow();
        assertNotEquals(v1.version(), v2.version());
        assertArrayEquals(Bytes.toBytes(v2.version()), rawCells(store(), v1.record().id()).get("ver"));
    }
}
