package io.hbasesessions.spring.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.FailMode;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import io.hbasesessions.store.UnavailableCalls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * HBase unreachable: every repository call, servlet and reactive, fails within the operation timeout with the store's
 * one exception (the reactive repository's as its error signal), whose message says HBase is the cause; with
 * {@code failMode=new_session} a lookup finds nothing instead, so the filter goes on with a new session. Reactive calls
 * queued behind the repository's busy threads end within about twice the timeout.
 */
class HBaseDownRepositoryTest {

    private static final long TIMEOUT_MILLIS = 1_500;

    @Test
    void everyCallFailsWithinTheOperationTimeout(@TempDir Path data) throws Exception {
        Scheduler oneThread = Schedulers.newSingle("one-store-thread");
        EmbeddedHBase own = EmbeddedHBase.builder().dataDirectory(data).startTimeout(Duration.ofSeconds(120)).build().start();
        StoreSettings settings = StoreSettings.builder()
                .set(Setting.ZOOKEEPER_QUORUM, own.zookeeperQuorum() + ":" + own.zookeeperPort())
                .set(Setting.KEY_SCOPE, "/shop").set(Setting.REGIONS, 1)
                .set(Setting.OPERATION_TIMEOUT_MILLIS, TIMEOUT_MILLIS).build();
        try (HBaseIndexedSessionRepository failing = new HBaseIndexedSessionRepository(settings,
                AbstractSessionRepositoryContractTest.LOADER, SessionSystem.SPRING_SESSION);
                HBaseIndexedSessionRepository goingOn = new HBaseIndexedSessionRepository(
                        settings.toBuilder().set(Setting.FAIL_MODE, FailMode.NEW_SESSION).build(),
                        AbstractSessionRepositoryContractTest.LOADER, SessionSystem.SPRING_SESSION);
                ReactiveHBaseIndexedSessionRepository reactive = new ReactiveHBaseIndexedSessionRepository(settings,
                        AbstractSessionRepositoryContractTest.LOADER, SessionSystem.SPRING_SESSION);
                ReactiveHBaseIndexedSessionRepository onOneThread = new ReactiveHBaseIndexedSessionRepository(settings,
                        AbstractSessionRepositoryContractTest.LOADER, SessionSystem.SPRING_SESSION, oneThread)) {
            HBaseSession session = savedWhileTheNewTablesWarmUp(failing);
            HBaseSession read = failing.findById(session.getId());
            HBaseSession readReactively = reactive.findById(session.getId()).block();

            own.stop();
            read.setAttribute("cart", "pen");
            Map<String, Executable> calls = new LinkedHashMap<>();
            calls.put("save", () -> failing.save(read));
            calls.put("findById", () -> failing.findById(session.getId()));
            calls.put("deleteById", () -> failing.deleteById(session.getId()));
            calls.put("findByPrincipalName", () -> failing.findByPrincipalName("alice"));
            calls.put("save of a new session", () -> failing.save(failing.createSession()));
            readReactively.setAttribute("cart", "mug");
            calls.put("reactive save", () -> reactive.save(readReactively).block());
            calls.put("reactive findById", () -> reactive.findById(session.getId()).block());
            calls.put("reactive deleteById", () -> reactive.deleteById(session.getId()).block());
            calls.put("reactive findByPrincipalName", () -> reactive.findByPrincipalName("alice").block());
            UnavailableCalls.assertEachFailsWithin(TIMEOUT_MILLIS, calls);
            assertCallsQueuedForAThreadEndWithinTwiceTheTimeout(onOneThread, session.getId());
            long startNanos = System.nanoTime();
            assertNull(goingOn.findById(session.getId()), "failMode=new_session finds nothing");
            assertTrue(Duration.ofNanos(System.nanoTime() - startNanos).toMillis() <= TIMEOUT_MILLIS + UnavailableCalls.MARGIN_MILLIS);
        } finally {
            own.stop();
            oneThread.dispose();
        }
    }

    /**
     * More calls than threads while HBase is down: each thread waits out the timeout, and a call that waited as long
     * for a thread fails without calling HBase, instead of after the calls before it (here 6 x 1.5 s).
     */
    private static void assertCallsQueuedForAThreadEndWithinTwiceTheTimeout(
            ReactiveHBaseIndexedSessionRepository repository, String id) throws InterruptedException {
        int calls = 6;
        CountDownLatch ended = new CountDownLatch(calls);
        List<Long> endedAfterMillis = new CopyOnWriteArrayList<>();
        List<Throwable> errors = new CopyOnWriteArrayList<>();
        long startNanos = System.nanoTime();
        for (int call = 0; call < calls; call++) {
            repository.findById(id).doFinally(signal -> {
                endedAfterMillis.add(Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
                ended.countDown();
            }).subscribe(found -> { }, errors::add);
        }
        assertTrue(ended.await(calls * TIMEOUT_MILLIS + UnavailableCalls.MARGIN_MILLIS, TimeUnit.MILLISECONDS));
        assertEquals(calls, errors.size());
        errors.forEach(error -> assertInstanceOf(StoreUnavailableException.class, error));
        assertTrue(Collections.max(endedAfterMillis) <= 2 * TIMEOUT_MILLIS + UnavailableCalls.MARGIN_MILLIS,
                "calls queued behind the thread ended after " + endedAfterMillis + " ms");
    }

    /** The first writes to new tables can outlast a short timeout on a busy machine, which this test is not about. */
    private static HBaseSession savedWhileTheNewTablesWarmUp(HBaseIndexedSessionRepository repository)
            throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            HBaseSession session = repository.createSession();
            session.setAttribute("user", "alice");
            try {
                repository.save(session);
                return session;
            } catch (StoreUnavailableException e) {
                if (attempt == 5) {
                    throw e;
                }
                Thread.sleep(1_000);
            }
        }
    }
}
