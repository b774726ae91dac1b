package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** HBase down: every operation fails within the operation timeout with the one documented exception, and recovers. */
class HBaseDownTest {

    private static final long TIMEOUT_MILLIS = 1_500;
    /** A behaviour bound, not a benchmark: generous for a loaded 2-core machine. */
    private static final long MARGIN_MILLIS = 3_000;

    @Test
    void everyOperationFailsWithinTheTimeoutWhileHBaseIsDownAndTheSameStoreRecovers(@TempDir Path data)
            throws Exception {
        EmbeddedHBase own = EmbeddedHBase.builder().dataDirectory(data).startTimeout(Duration.ofSeconds(120)).build().start();
        try (SessionStore store = TestStores.open(StoreSettings.builder()
                .set(Setting.ZOOKEEPER_QUORUM, own.zookeeperQuorum() + ":" + own.zookeeperPort())
                .set(Setting.KEY_SCOPE, "/shop").set(Setting.REGIONS, 1).set(Setting.TOUCH_INTERVAL_SECONDS, 0L)
                .set(Setting.OPERATION_TIMEOUT_MILLIS, TIMEOUT_MILLIS).set(Setting.EXPIRY_EVENTS, true).build())) {
            StoredSession kept = store.newSession(SessionRecord.created(TestStores.newId(), Instant.now(),
                    Duration.ofMinutes(30)).withLogin(new SessionPrincipal("ivy", List.of(), "FORM")), false);
            kept.attributes().put("cart", "book");
            store.save(kept, kept.record());
            String id = kept.record().id();

            own.stop();
            kept.attributes().put("cart", "pen");
            Map<String, Executable> operations = new LinkedHashMap<>();
            operations.put("create", () -> TestStores.create(store, Instant.now(), Duration.ofMinutes(30), Map.of("a", 1)));
            operations.put("load", () -> store.load(id));
            operations.put("liveAmong", () -> store.liveAmong(Set.of(id)));
            operations.put("save", () -> store.save(kept, kept.record()));
            operations.put("touch", () -> store.save(kept, kept.record().withLastAccessTime(Instant.now().plusSeconds(1))));
            operations.put("delete", () -> store.delete(id));
            operations.put("changeId", () -> store.changeId(kept, kept.record(), TestStores.newId()));
            operations.put("saveWhole", () -> store.saveWhole(kept.record(), Map.of("x", 1), true));
            operations.put("findByUser", () -> store.findByUser("ivy"));
            operations.put("revokeAll", () -> store.revokeAll("ivy"));
            operations.put("sweepExpired", store::sweepExpired);
            Map<String, Long> failedAfterMillis = new LinkedHashMap<>();
            operations.forEach((name, operation) -> failedAfterMillis.put(name, millisToFail(name, operation)));
            System.out.println("HBase down, operationTimeoutMillis=" + TIMEOUT_MILLIS + ", failed after (ms): "
                    + failedAfterMillis);
            failedAfterMillis.forEach((name, millis) ->
                    assertTrue(millis <= TIMEOUT_MILLIS + MARGIN_MILLIS, name + " took " + millis + " ms"));
            assertEquals(operations.size(), store.counters().get(StoreCounter.ERRORS));
            List<Long> concurrentLoads = concurrently(16, () -> millisToFail("concurrent load", () -> store.load(id)));
            System.out.println("16 concurrent loads (coalesceCalls) failed after (ms): " + concurrentLoads);
            concurrentLoads.forEach(millis -> assertTrue(millis <= TIMEOUT_MILLIS + MARGIN_MILLIS, millis + " ms"));

            own.start();
            long restartedNanos = System.nanoTime();
            StoredSession reloaded = firstSuccess(() -> store.load(id).orElseThrow());
            System.out.println("same store answered again " + Duration.ofNanos(System.nanoTime() - restartedNanos).toMillis()
                    + " ms after start() returned");
            assertEquals("book", reloaded.attributes().get("cart"));
            reloaded.attributes().put("cart", "pen");
            assertEquals(SaveResult.WRITTEN, store.save(reloaded, reloaded.record()));
            assertEquals(1, store.revokeAll("ivy"));
        } finally {
            own.stop();
        }
    }

    private static <T> List<T> concurrently(int threads, Callable<T> task) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> running = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                running.add(pool.submit(task));
            }
            List<T> results = new ArrayList<>();
            for (Future<T> result : running) {
                results.add(result.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long millisToFail(String name, Executable operation) {
        long startNanos = System.nanoTime();
        StoreUnavailableException e = assertThrows(StoreUnavailableException.class, operation, name);
        assertTrue(e.getMessage().startsWith("HBase"), name + ": " + e.getMessage());
        return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
    }

    /**
     * The first calls after a restart may still meet the old region server address in the client's cache;
     * the store must get past that by itself, within a few operation timeouts, without being reopened.
     */
    private static <T> T firstSuccess(Supplier<T> operation) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                return operation.get();
            } catch (StoreUnavailableException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
        }
    }
}
