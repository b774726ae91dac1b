package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code stickySessions} on two nodes of one key scope, routes {@code a} and {@code b}, and an operator's store
 * without the mode or a route: requests routed to a session's home are answered from its copy, and every change made
 * elsewhere (a write, an invalidation, an id change, a revocation, the home moving) is seen by a load that begins
 * {@code stickyStalenessMillis} after it completed.
 */
@ExtendWith(HBaseExtension.class)
class StickySessionsTest {

    private static final long STALENESS_MILLIS = 1_000;
    private static final Duration IDLE = Duration.ofMinutes(30);

    private static StoreSettings settings;
    private static SessionStore nodeA;
    private static SessionStore nodeB;
    private static SessionStore operator;
    private static HBaseInspector hbase;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) throws Exception {
        settings = TestStores.settings(server, namespace)
                .set(Setting.STICKY_SESSIONS, true)
                .set(Setting.STICKY_STALENESS_MILLIS, STALENESS_MILLIS)
                .set(Setting.CHANGES_TABLE, namespace.table("session_changes"))
                .build();
        nodeA = SessionStores.open(settings, TestStores.WEBAPP.onRoute("a"));
        nodeB = SessionStores.open(settings, TestStores.WEBAPP.onRoute("b"));
        operator = TestStores.open(settings.toBuilder().set(Setting.STICKY_SESSIONS, false).build());
        hbase = new HBaseInspector(configuration);
        awaitCopiesAnswer(nodeA, "a");
        awaitCopiesAnswer(nodeB, "b");
    }

    /** Until the node has read the feed once (its first read also finds the table's region), no copy answers. */
    private static void awaitCopiesAnswer(SessionStore node, String route) throws InterruptedException {
        String probe = TestStores.create(node, Instant.now(), IDLE, Map.of()).record().id();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        long hits = count(node, StoreCounter.STICKY_HITS);
        while (true) {
            node.load(probe, route);
            if (count(node, StoreCounter.STICKY_HITS) > hits) {
                return;
            }
            assertTrue(System.nanoTime() < deadline, "node " + route + " never read the changes table");
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void close() throws Exception {
        nodeA.close();
        nodeB.close();
        operator.close();
        hbase.close();
    }

    private static StoredSession createOn(SessionStore node, String user) {
        StoredSession session = node.newSession(SessionRecord.created(TestStores.newId(), Instant.now(), IDLE)
                .withLogin(new SessionPrincipal(user, List.of(), "FORM")), false);
        session.attributes().put("cart", "book");
        node.save(session, session.record());
        return session;
    }

    private static String cartOf(Optional<StoredSession> loaded) {
        return (String) loaded.orElseThrow().attributes().get("cart");
    }

    private static long count(SessionStore node, StoreCounter counter) {
        return node.counters().get(counter);
    }

    /** The bound README states: whatever completed this long before a load began, the load sees. */
    private static void waitTheBound() throws InterruptedException {
        Thread.sleep(STALENESS_MILLIS + 50);
    }

    private static void setCart(SessionStore node, StoredSession session, String cart) {
        session.attributes().put("cart", cart);
        assertTrue(node.save(session, session.record()).wroteSomething(), "the save wrote");
    }

    @Test
    void loadsRoutedToTheHomeAreAnsweredFromItsCopyAndOthersFromHBase() {
        String id = createOn(nodeA, "ann").record().id();
        long hits = count(nodeA, StoreCounter.STICKY_HITS);
        for (int i = 0; i < 20; i++) {
            assertEquals("book", cartOf(nodeA.load(id, "a")));
        }
        // A read of the feed slower than the bound (a busy machine) lets a load or two go to HBase.
        long fromCopy = count(nodeA, StoreCounter.STICKY_HITS) - hits;
        assertTrue(fromCopy >= 18, "loads routed here answered from the copy: " + fromCopy + " of 20");

        long misses = count(nodeA, StoreCounter.STICKY_MISSES);
        assertEquals("book", cartOf(nodeA.load(id)));
        long afterUnrouted = count(nodeA, StoreCounter.STICKY_HITS);
        assertEquals(hits + fromCopy, afterUnrouted, "a load without a route is read from HBase");
        assertEquals(misses, count(nodeA, StoreCounter.STICKY_MISSES), "and is no miss of a routed load");
    }

    @Test
    void aSessionThatFailsOverMovesItsHomeAndTheOldHomeNeverServesItsCopyAgain() throws Exception {
        StoredSession created = createOn(nodeA, "bob");
        String id = created.record().id();
        assertEquals("book", cartOf(nodeA.load(id, "a")));

        // Node a is out of the balancer: the user's next request, still routed to a, reaches b.
        StoredSession onB = nodeB.load(id, "a").orElseThrow();
        setCart(nodeB, onB, "book+pen");
        waitTheBound();
        long invalidations = count(nodeA, StoreCounter.STICKY_INVALIDATIONS);
        assertTrue(invalidations > 0, "a's copy was dropped when b took the session over");
        long hitsOnB = count(nodeB, StoreCounter.STICKY_HITS);
        assertEquals("book+pen", cartOf(nodeB.load(id, "b")), "the session is at home on b, with b's route");
        assertEquals(1, count(nodeB, StoreCounter.STICKY_HITS) - hitsOnB, "b answers it from its copy");

        // A request that still carries a's route (a second tab) reaches a again: read from HBase, not a's old copy.
        long hitsOnA = count(nodeA, StoreCounter.STICKY_HITS);
        StoredSession staleTab = nodeA.load(id, "a").orElseThrow();
        assertEquals("book+pen", cartOf(Optional.of(staleTab)));
        assertEquals(hitsOnA, count(nodeA, StoreCounter.STICKY_HITS), "a holds no copy of a session at home on b");

        // Its write on a reaches b's copy within the bound, and the home stays on b.
        setCart(nodeA, staleTab, "book+pen+ink");
        waitTheBound();
        assertEquals("book+pen+ink", cartOf(nodeB.load(id, "b")));
        assertEquals("book+pen+ink", cartOf(nodeB.load(id, "b")));
        assertTrue(count(nodeB, StoreCounter.STICKY_INVALIDATIONS) > 0, "b dropped the copy a's write made stale");
    }

    @Test
    void failbackAfterWritesOnTheFailoverNodeServesThoseWrites() throws Exception {
        String id = createOn(nodeA, "cleo").record().id();
        assertEquals("book", cartOf(nodeA.load(id, "a")));
        StoredSession onB = nodeB.load(id, "a").orElseThrow();
        setCart(nodeB, onB, "failover");
        setCart(nodeB, nodeB.load(id, "b").orElseThrow(), "failover-2");

        // b leaves the balancer: the user's cookie (route b) now reaches a, which takes the session back.
        StoredSession back = nodeA.load(id, "b").orElseThrow();
        assertEquals("failover-2", cartOf(Optional.of(back)), "the failover node's writes are seen after failback");
        setCart(nodeA, back, "failback");
        waitTheBound();
        assertEquals("failback", cartOf(nodeA.load(id, "a")));
        assertEquals("failback", cartOf(nodeB.load(id, "b")), "b, no longer home, reads HBase");
    }

    @Test
    void invalidationIdChangeAndRevocationElsewhereReachTheHomesCopyWithinTheBound() throws Exception {
        String invalidated = createOn(nodeA, "dan").record().id();
        String moved = createOn(nodeA, "dan").record().id();
        String revoked = createOn(nodeA, "eve").record().id();
        for (String id : List.of(invalidated, moved, revoked)) {
            assertEquals("book", cartOf(nodeA.load(id, "a")));
            assertEquals("book", cartOf(nodeA.load(id, "a")));
        }

        assertTrue(nodeB.delete(invalidated));
        StoredSession toMove = nodeB.load(moved, "a").orElseThrow();
        String newId = TestStores.newId();
        assertTrue(nodeB.changeId(toMove, toMove.record(), newId).wroteSomething());
        assertEquals(1, operator.revokeAll("eve"), "the operator's store revokes without the mode or a route");
        waitTheBound();

        assertTrue(nodeA.load(invalidated, "a").isEmpty(), "invalidated on b");
        assertTrue(nodeA.load(moved, "a").isEmpty(), "moved to a new id on b");
        assertTrue(nodeA.load(revoked, "a").isEmpty(), "revoked by the operator");
        assertEquals("book", cartOf(nodeB.load(newId, "b")));
    }

    /**
     * A node reading a session from its copy compares what the request read with the bytes it wrote itself, without
     * encoding the values again (SessionAttributesTest counts that): a request that only reads writes nothing, and a
     * value changed in place is written and read back by the other node.
     */
    @Test
    @SuppressWarnings("unchecked")
    void readsFromTheHomesCopyWriteNothingAndAChangeInPlaceIsStillSaved() {
        StoredSession created = nodeA.newSession(SessionRecord.created(TestStores.newId(), Instant.now(), IDLE), false);
        Map<String, Integer> quantities = new java.util.HashMap<>();
        for (int i = 0; i < 40; i++) {
            quantities.put("item-" + i, i);
        }
        created.attributes().put("quantities", quantities);
        created.attributes().put("history", new java.util.ArrayList<>(List.of("home")));
        nodeA.save(created, created.record());
        String id = created.record().id();
        long writes = count(nodeA, StoreCounter.FULL_WRITES);
        long hits = count(nodeA, StoreCounter.STICKY_HITS);
        for (int i = 0; i < 20; i++) {
            StoredSession request = nodeA.load(id, "a").orElseThrow();
            assertEquals(40, ((Map<String, Integer>) request.attributes().get("quantities")).size());
            assertEquals(List.of("home"), request.attributes().get("history"));
            nodeA.save(request, request.record());
        }
        assertTrue(count(nodeA, StoreCounter.STICKY_HITS) - hits >= 18, "read from the copy");
        assertEquals(writes, count(nodeA, StoreCounter.FULL_WRITES), "requests that only read wrote nothing");

        StoredSession changing = nodeA.load(id, "a").orElseThrow();
        ((List<String>) changing.attributes().get("history")).add("cart");
        assertTrue(nodeA.save(changing, changing.record()).wroteSomething(), "a change in place is written");
        assertEquals(List.of("home", "cart"), nodeB.load(id).orElseThrow().attributes().get("history"));
        StoredSession next = nodeA.load(id, "a").orElseThrow();
        assertEquals(List.of("home", "cart"), next.attributes().get("history"));
        ((List<String>) next.attributes().get("history")).add("pay");
        assertTrue(nodeA.save(next, next.record()).wroteSomething(), "and so is the next one, on the copy just written");
        assertEquals(List.of("home", "cart", "pay"), nodeB.load(id).orElseThrow().attributes().get("history"));
    }

    @Test
    void theHomesOwnWritesAnnounceNothingAndKeepItsCopyCurrent() {
        StoredSession session = createOn(nodeA, "fay");
        String id = session.record().id();
        long announced = count(nodeA, StoreCounter.CHANGES_ANNOUNCED);
        for (int i = 0; i < 10; i++) {
            StoredSession request = nodeA.load(id, "a").orElseThrow();
            setCart(nodeA, request, "item-" + i);
            assertEquals("item-" + i, cartOf(nodeA.load(id, "a")));
        }
        assertEquals(announced, count(nodeA, StoreCounter.CHANGES_ANNOUNCED), "sticky traffic writes no change");
    }

    @Test
    void aNodeThatCannotReadTheChangesReadsFromHBaseUntilItCan() throws Exception {
        String id = createOn(nodeA, "gus").record().id();
        assertEquals("book", cartOf(nodeA.load(id, "a")));
        TableName changes = TableName.valueOf(settings.get(Setting.CHANGES_TABLE));
        hbase.admin().disableTable(changes);
        try {
            waitTheBound();
            long misses = count(nodeA, StoreCounter.STICKY_MISSES);
            assertEquals("book", cartOf(nodeA.load(id, "a")));
            assertEquals(misses + 1, count(nodeA, StoreCounter.STICKY_MISSES), "no copy is trusted without the feed");
            // A write over another node's home cannot be announced: it fails, and changes nothing.
            StoredSession onB = nodeB.load(id, "b").orElseThrow();
            onB.attributes().put("cart", "unannounced");
            assertThrows(StoreUnavailableException.class, () -> nodeB.save(onB, onB.record()));
        } finally {
            hbase.admin().enableTable(changes);
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        long hits = count(nodeA, StoreCounter.STICKY_HITS);
        while (count(nodeA, StoreCounter.STICKY_HITS) == hits) {
            assertTrue(System.nanoTime() < deadline, "the copy never answered again once the changes could be read");
            assertEquals("book", cartOf(nodeA.load(id, "a")));
            Thread.sleep(50);
        }
    }

    @Test
    void copiesStayWithinTheirBytesLeastRecentlyUsedFirstOut() throws Exception {
        try (SessionStore small = SessionStores.open(settings.toBuilder().set(Setting.STICKY_COPIES_MAX_BYTES, 64L * 1024)
                .set(Setting.KEY_SCOPE, "/small").build(), TestStores.WEBAPP.onRoute("a"))) {
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ids.add(TestStores.create(small, Instant.now(), IDLE, Map.of("blob", new byte[8 * 1024])).record().id());
            }
            // Newest first, each once: a load that misses keeps the session it read, which may push out a copy not yet
            // asked for (in creation order, a least-recently-used cache would answer none of the 40). The newest is
            // asked until it answers: copies answer only while the feed was read lately, which the creates may outlast
            // on a busy machine.
            java.util.Collections.reverse(ids);
            long hits = count(small, StoreCounter.STICKY_HITS);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (count(small, StoreCounter.STICKY_HITS) == hits) {
                assertTrue(small.load(ids.get(0), "a").isPresent());
                assertTrue(System.nanoTime() < deadline, "the newest session's copy never answered");
            }
            ids.subList(1, ids.size()).forEach(id -> assertTrue(small.load(id, "a").isPresent()));
            long answeredFromCopies = count(small, StoreCounter.STICKY_HITS) - hits;
            assertTrue(answeredFromCopies <= 8, "64 KiB hold at most 8 sessions of 8 KiB; copies answered "
                    + answeredFromCopies);
        }
    }

    @Test
    void stickySessionsWithoutARouteOrWithPessimisticLockingIsRefusedAtStart() {
        StoreConfigurationException noRoute = assertThrows(StoreConfigurationException.class,
                () -> SessionStores.open(settings, TestStores.WEBAPP));
        assertTrue(noRoute.getMessage().contains("jvmRoute"), noRoute.getMessage());
        StoreConfigurationException pessimistic = assertThrows(StoreConfigurationException.class,
                () -> settings.toBuilder().set(Setting.LOCKING_MODE, LockingMode.PESSIMISTIC).build());
        assertTrue(pessimistic.getMessage().contains("stickySessions"), pessimistic.getMessage());
        assertFalse(TestStores.WEBAPP.onRoute("").route().isPresent(), "an empty route is none");
    }
}
