package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SaveResult.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue #3, point 5: parallel requests on one session lose nothing. */
@ExtendWith(HBaseExtension.class)
class ConcurrencyTest {

    private static SessionRecord newSession(Instant now) {
        return SessionRecord.builder(TestStores.newId(), now).maxInactiveInterval(Duration.ofMinutes(30)).build();
    }

    /** Each thread adds its own attributes: conflicts happen, merges keep every one of them. */
    @Test
    void sixteenThreadsAddingFiftyAttributesEachEndWithAllEightHundred(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        try (SessionStore store = SessionStores.open(TestStores.settings(server, namespace)
                .operationTimeoutMillis(10_000).build())) {
            String id = store.create(newSession(Instant.now())).record().id();

            List<Outcome> outcomes = runInParallel(16, thread -> {
                List<Outcome> mine = new ArrayList<>();
                for (int i = 0; i < 50; i++) {
                    LoadedSession loaded = store.load(id).orElseThrow();
                    SessionRecord changed = loaded.record().toBuilder().attribute("t" + thread + "-" + i, i).build();
                    mine.add(store.save(loaded, changed).outcome());
                }
                return mine;
            });

            assertEquals(800, store.load(id).orElseThrow().record().attributes().size());
            assertTrue(outcomes.stream().allMatch(o -> o == Outcome.WRITTEN || o == Outcome.MERGED), outcomes.toString());
            StoreCounters counters = store.counters();
            System.out.println("16x50 optimistic: conflicts=" + counters.conflicts() + " retries="
                    + counters.conflictRetries() + " merged=" + outcomes.stream().filter(o -> o == Outcome.MERGED).count());
            assertTrue(counters.conflicts() > 0, "16 threads on one row must have collided");
        }
    }

    /** The same attribute from parallel requests: only a lease keeps read-modify-write whole. */
    @Test
    void pessimisticLeaseLosesNoIncrementOfOneCounterUnderEightThreads(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        try (SessionStore store = SessionStores.open(TestStores.settings(server, namespace)
                .lockingMode(LockingMode.PESSIMISTIC).operationTimeoutMillis(10_000).build())) {
            String id = store.create(newSession(Instant.now()).toBuilder().attribute("counter", 0).build()).record().id();

            long startNanos = System.nanoTime();
            runInParallel(8, thread -> {
                for (int i = 0; i < 100; i++) {
                    LoadedSession loaded = store.load(id).orElseThrow();
                    int counter = (Integer) loaded.record().attributes().get("counter");
                    store.save(loaded, loaded.record().toBuilder().attribute("counter", counter + 1).build());
                }
                return List.<Outcome>of();
            });

            System.out.println("8x100 pessimistic increments took " + Duration.ofNanos(System.nanoTime() - startNanos).toMillis()
                    + " ms, conflicts=" + store.counters().conflicts());
            assertEquals(800, store.load(id).orElseThrow().record().attributes().get("counter"));
        }
    }

    private interface Worker {
        List<Outcome> run(int thread) throws Exception;
    }

    private static List<Outcome> runInParallel(int threads, Worker worker) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Outcome>>> futures = new ArrayList<>();
            for (int thread = 0; thread < threads; thread++) {
                int number = thread;
                Callable<List<Outcome>> task = () -> worker.run(number);
                futures.add(pool.submit(task));
            }
            List<Outcome> outcomes = new ArrayList<>();
            for (Future<List<Outcome>> future : futures) {
                outcomes.addAll(future.get());
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }
}
