package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code coalesceCalls} (issue #14 item 2) against a real HBase: a lone request's call goes at once and on
 * its own; concurrent requests' Gets and touches share multi-actions, and every request still gets its own
 * answer (each thread checks it reads its own sessions and that none of its writes is lost).
 */
@ExtendWith(HBaseExtension.class)
class CallCoalescingTest {

    private static final int THREADS = 16;
    private static final int SESSIONS_PER_THREAD = 8;
    private static final int ROUNDS = 40;

    @Test
    void aLoneRequestsCallsGoAtOnceOnTheirOwn(EmbeddedHBase server, TestNamespace namespace) {
        try (SessionStore store = TestStores.open(TestStores.settings(server, namespace).build())) {
            StoredSession session = TestStores.create(store, Instant.now(), Duration.ofMinutes(30), Map.of("visits", 0));
            for (int visit = 1; visit <= 50; visit++) {
                StoredSession loaded = store.load(session.record().id()).orElseThrow();
                loaded.attributes().put("visits", visit);
                assertEquals(SaveResult.WRITTEN, store.save(loaded, loaded.record()));
            }
            StoreCounters counters = store.counters();
            assertEquals(0, counters.get(StoreCounter.MULTI_ACTIONS));
            assertTrue(counters.get(StoreCounter.CALLS_SENT_ALONE) >= 50, counters.toString());
        }
    }

    @Test
    void concurrentRequestsShareMultiActionsAndEachGetsItsOwnAnswer(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        try (SessionStore store = TestStores.open(TestStores.settings(server, namespace).build())) {
            StoreCounters before = store.counters();
            List<Integer> writesPerThread = runThreads(store);

            StoreCounters counters = store.counters();
            long multiActions = counters.get(StoreCounter.MULTI_ACTIONS) - before.get(StoreCounter.MULTI_ACTIONS);
            long inMultiActions = counters.get(StoreCounter.CALLS_IN_MULTI_ACTIONS)
                    - before.get(StoreCounter.CALLS_IN_MULTI_ACTIONS);
            long alone = counters.get(StoreCounter.CALLS_SENT_ALONE) - before.get(StoreCounter.CALLS_SENT_ALONE);
            System.out.printf("FIGURE %d threads: %d calls alone, %d in %d multi-actions (%.2f calls each)%n", THREADS,
                    alone, inMultiActions, multiActions, (double) inMultiActions / Math.max(1, multiActions));
            assertTrue(multiActions > 0, "no multi-action at " + THREADS + " threads: " + counters);
            assertTrue(inMultiActions >= 2 * multiActions);
            assertEquals(THREADS * ROUNDS, writesPerThread.stream().mapToInt(Integer::intValue).sum());
            assertEquals(0, counters.get(StoreCounter.CONFLICTS), "each thread wrote only its own sessions");
        }
    }

    /**
     * A region server runs a multi-action's conditional writes one after another, each with its own WAL sync:
     * writes that wait for the sync go alone, touches (ASYNC_WAL) travel together.
     */
    @Test
    void writesThatWaitForTheWalSyncGoAloneTouchesTravelTogether(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        try (SessionStore store = TestStores.open(TestStores.settings(server, namespace)
                .set(Setting.TOUCH_INTERVAL_SECONDS, 0L).build())) {
            List<StoredSession> sessions = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                sessions.add(TestStores.create(store, Instant.now(), Duration.ofMinutes(30), Map.of("count", 0)));
            }
            long before = store.counters().get(StoreCounter.MULTI_ACTIONS);
            eachThreadSaves(sessions, (session, round) -> {
                session.attributes().put("count", round);
                return session.record();
            }, store);
            assertEquals(before, store.counters().get(StoreCounter.MULTI_ACTIONS), "a SYNC_WAL write went in a batch");

            eachThreadSaves(sessions, (session, round) -> session.record()
                    .withLastAccessTime(session.record().lastAccessTime().plusSeconds(1)), store);
            StoreCounters counters = store.counters();
            assertTrue(counters.get(StoreCounter.MULTI_ACTIONS) > before, "no touches travelled together: " + counters);
            assertEquals(THREADS * ROUNDS, counters.get(StoreCounter.TOUCHES));
        }
    }

    private static void eachThreadSaves(List<StoredSession> sessions,
            BiFunction<StoredSession, Integer, SessionRecord> change, SessionStore store)
            throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (StoredSession session : sessions) {
                running.add(threads.submit(() -> {
                    for (int round = 1; round <= ROUNDS; round++) {
                        SaveResult result = store.save(session, change.apply(session, round));
                        assertTrue(result == SaveResult.WRITTEN || result == SaveResult.TOUCHED, result.toString());
                    }
                }));
            }
            for (Future<?> done : running) {
                done.get(5, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void withCoalesceCallsFalseNoCallWaitsForAnother(EmbeddedHBase server, TestNamespace namespace) throws Exception {
        try (SessionStore store = TestStores.open(TestStores.settings(server, namespace)
                .set(Setting.COALESCE_CALLS, false).build())) {
            runThreads(store);
            StoreCounters counters = store.counters();
            assertEquals(0, counters.get(StoreCounter.MULTI_ACTIONS));
            assertEquals(0, counters.get(StoreCounter.CALLS_SENT_ALONE));
        }
    }

    /**
     * Each thread creates its own sessions, then loads one after another, checks it is its own, and
     * increments its counter; at the end it reads every one back. Returns the writes each thread saw hold.
     */
    private static List<Integer> runThreads(SessionStore store) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int thread = 0; thread < THREADS; thread++) {
                String owner = "thread-" + thread;
                results.add(threads.submit(() -> incrementOwnSessions(store, owner)));
            }
            List<Integer> writes = new ArrayList<>();
            for (Future<Integer> result : results) {
                writes.add(result.get(5, TimeUnit.MINUTES));
            }
            return writes;
        } finally {
            threads.shutdownNow();
        }
    }

    private static int incrementOwnSessions(SessionStore store, String owner) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < SESSIONS_PER_THREAD; i++) {
            ids.add(TestStores.create(store, Instant.now(), Duration.ofMinutes(30), Map.of("owner", owner, "count", 0))
                    .record().id());
        }
        int[] expected = new int[SESSIONS_PER_THREAD];
        for (int round = 0; round < ROUNDS; round++) {
            int which = round % SESSIONS_PER_THREAD;
            StoredSession loaded = store.load(ids.get(which)).orElseThrow();
            assertEquals(owner, loaded.attributes().get("owner"), "a load answered with another request's row");
            assertEquals(expected[which], loaded.attributes().get("count"));
            loaded.attributes().put("count", ++expected[which]);
            assertEquals(SaveResult.WRITTEN, store.save(loaded, loaded.record()));
        }
        int held = 0;
        for (int i = 0; i < SESSIONS_PER_THREAD; i++) {
            held += (Integer) store.load(ids.get(i)).orElseThrow().attributes().get("count");
        }
        return held;
    }
}
