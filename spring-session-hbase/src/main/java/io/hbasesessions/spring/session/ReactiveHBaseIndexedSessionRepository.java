package io.hbasesessions.spring.session;

import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.ReactiveFindByIndexNameSessionRepository;
import org.springframework.session.ReactiveSessionRepository;
import org.springframework.session.SaveMode;
import org.springframework.session.SessionIdGenerator;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Spring Session's reactive repository (WebFlux's {@code WebSession}) on the shared HBase store: the same rows, the
 * same {@link HBaseSession}s and the same rules as {@link HBaseIndexedSessionRepository}, which it runs (what changed
 * is written and merged onto concurrent requests' changes, idle sessions end, the principal index,
 * {@code SessionCreatedEvent}, {@code SessionDeletedEvent} and, with {@code expiryEvents}, {@code SessionExpiredEvent};
 * see that class). A session is written when Spring Session saves it ({@code FlushMode.ON_SAVE}): writing at every
 * change ({@code IMMEDIATE}) would block the caller of {@code setAttribute}.
 *
 * <p><b>Threads.</b> The store's calls block: each waits for HBase, bounded by {@code operationTimeoutMillis} (and,
 * while HBase is down, uses all of it). A WebFlux server serves every connection from a few event-loop threads, so a
 * call made on one would stall every request of that loop. Every call that reaches HBase ({@link #findById},
 * {@link #save}, {@link #deleteById}, {@link #findByIndexNameAndIndexValue}, {@link #revokeAll}) therefore runs on a
 * bounded scheduler, and the {@code Mono} completes on its thread. By default it is the repository's own
 * ({@code Schedulers.newBoundedElastic}, threads named {@value #THREAD_NAME_PREFIX}-N, Reactor's default bounds: 10
 * threads per CPU, 100,000 waiting calls), not Reactor's shared {@code boundedElastic()}: during an outage every thread
 * waits out the timeout, and on a shared scheduler that would also hold up the application's own blocking work;
 * {@link #close()} disposes it. A call that waited longer than {@code operationTimeoutMillis} for a thread fails
 * without calling HBase, so every call ends within about twice that timeout. {@link #createSession()} reads nothing and answers on the caller's thread.
 *
 * <p><b>Why not HBase's asynchronous client.</b> The store reaches HBase through the client's asynchronous API, but the
 * session protocol over it (a conditional write, on conflict a re-read and a merge and a retry after a jittered
 * backoff, the user index and expiry index writes in their order, the sticky copies) is sequential code in
 * common-store, which every adapter shares. Running it on futures would be a second implementation of those rules
 * for this adapter alone; a bounded scheduler keeps one.
 */
public final class ReactiveHBaseIndexedSessionRepository implements ReactiveSessionRepository<HBaseSession>,
        ReactiveFindByIndexNameSessionRepository<HBaseSession>, AutoCloseable {

    /** The name of the own scheduler's threads, followed by a number. */
    public static final String THREAD_NAME_PREFIX = "hbase-sessions-reactive";
    private static final int IDLE_THREAD_SECONDS = 60;

    private final HBaseIndexedSessionRepository sessions;
    private final Scheduler scheduler;
    private final boolean ownScheduler;

    /**
     * Opens the store of {@code settings}' key scope, with a scheduler of its own for the calls to HBase.
     *
     * @param applicationClassLoader the loader of the application's classes, which attribute values may be
     * @throws io.hbasesessions.store.StoreConfigurationException for settings that are missing or wrong, saying how to
     *     fix them
     * @throws io.hbasesessions.store.StoreUnavailableException if HBase cannot be reached within the start-up timeout
     */
    public ReactiveHBaseIndexedSessionRepository(StoreSettings settings, ClassLoader applicationClassLoader,
            SessionSystem system) {
        this(new HBaseIndexedSessionRepository(settings, applicationClassLoader, system), null);
    }

    /** As the other constructor, the calls to HBase on {@code scheduler}, which must be one that may block. */
    public ReactiveHBaseIndexedSessionRepository(StoreSettings settings, ClassLoader applicationClassLoader,
            SessionSystem system, Scheduler scheduler) {
        this(new HBaseIndexedSessionRepository(settings, applicationClassLoader, system),
                Objects.requireNonNull(scheduler, "scheduler"));
    }

    /** Over {@code sessions}, whose flush mode must stay {@code ON_SAVE}; a null scheduler: an own one. */
    ReactiveHBaseIndexedSessionRepository(HBaseIndexedSessionRepository sessions, Scheduler scheduler) {
        this.sessions = sessions;
        this.ownScheduler = scheduler == null;
        this.scheduler = ownScheduler ? Schedulers.newBoundedElastic(Schedulers.DEFAULT_BOUNDED_ELASTIC_SIZE,
                Schedulers.DEFAULT_BOUNDED_ELASTIC_QUEUESIZE, THREAD_NAME_PREFIX, IDLE_THREAD_SECONDS, true) : scheduler;
    }

    /** The maximum inactive interval of new sessions; zero or negative: they never idle out. Default 30 minutes. */
    public void setDefaultMaxInactiveInterval(Duration interval) {
        sessions.setDefaultMaxInactiveInterval(interval);
    }

    /** As {@link HBaseIndexedSessionRepository#setSaveMode}: {@code ALWAYS} is refused. */
    public void setSaveMode(SaveMode saveMode) {
        sessions.setSaveMode(saveMode);
    }

    public void setSessionIdGenerator(SessionIdGenerator generator) {
        sessions.setSessionIdGenerator(generator);
    }

    /** As {@link HBaseIndexedSessionRepository#setApplicationEventPublisher}; events are published on the store's threads. */
    public void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
        sessions.setApplicationEventPublisher(publisher);
    }

    /** A new session, stored at its first save; nothing is read, so it answers on the caller's thread. */
    @Override
    public Mono<HBaseSession> createSession() {
        return Mono.fromSupplier(sessions::createSession);
    }

    /** {@link HBaseIndexedSessionRepository#save}, on the store's threads; its failures are the error signal. */
    @Override
    public Mono<Void> save(HBaseSession session) {
        return runOnStoreThreads(() -> sessions.save(session));
    }

    /** {@link HBaseIndexedSessionRepository#findById}, on the store's threads: empty where that finds nothing. */
    @Override
    public Mono<HBaseSession> findById(String id) {
        return onStoreThreads(() -> sessions.findById(id)).onErrorResume(StoreUnavailableException.class, refused -> {
            sessions.goOnWithoutSessionOrThrow(refused);
            return Mono.empty();
        });
    }

    /** {@link HBaseIndexedSessionRepository#deleteById}, on the store's threads. */
    @Override
    public Mono<Void> deleteById(String id) {
        return runOnStoreThreads(() -> sessions.deleteById(id));
    }

    /**
     * {@link HBaseIndexedSessionRepository#findByIndexNameAndIndexValue}, on the store's threads: the live sessions of a
     * principal for {@link #PRINCIPAL_NAME_INDEX_NAME} (the reactive API's name of the index, which the servlet API spells
     * otherwise; either is understood), an empty map for any other index.
     */
    @Override
    public Mono<Map<String, HBaseSession>> findByIndexNameAndIndexValue(String indexName, String indexValue) {
        String servletName = PRINCIPAL_NAME_INDEX_NAME.equals(indexName)
                ? FindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME : indexName;
        return onStoreThreads(() -> sessions.findByIndexNameAndIndexValue(servletName, indexValue));
    }

    /**
     * "Log out everywhere": deletes every session of {@code user} in every key scope and emits how many, publishing a
     * {@code SessionDeletedEvent} for each of this key scope's ({@link HBaseIndexedSessionRepository#revokeAll}).
     */
    public Mono<Integer> revokeAll(String user) {
        return onStoreThreads(() -> sessions.revokeAll(user));
    }

    /** The store under this repository: its counters, latencies and health. */
    public SessionStore store() {
        return sessions.store();
    }

    /** Stops this node's expiry sweep, closes the store and disposes the own scheduler. */
    @Override
    public void close() {
        try {
            sessions.close();
        } finally {
            if (ownScheduler) {
                scheduler.dispose();
            }
        }
    }

    private <T> Mono<T> onStoreThreads(Callable<T> call) {
        return Mono.defer(() -> {
            long queuedNanos = System.nanoTime();
            return Mono.fromCallable(() -> {
                refuseAfterALongWait(queuedNanos);
                return call.call();
            }).subscribeOn(scheduler);
        });
    }

    private Mono<Void> runOnStoreThreads(Runnable call) {
        return this.<Void>onStoreThreads(() -> {
            call.run();
            return null;
        });
    }

    /**
     * Fails a call that waited longer than {@code operationTimeoutMillis} for a thread: while HBase is down every thread
     * waits out the timeout, and calls queued behind them would otherwise wait for hours of queue. So a call ends
     * within about twice the timeout, and a backlog drains at once when HBase is back.
     */
    private void refuseAfterALongWait(long queuedNanos) {
        Duration waited = Duration.ofNanos(System.nanoTime() - queuedNanos);
        if (waited.compareTo(sessions.operationTimeout()) > 0) {
            throw new StoreUnavailableException("Waited " + waited.toMillis() + " ms for one of the repository's "
                    + "threads, longer than operationTimeoutMillis=" + sessions.operationTimeout().toMillis()
                    + ": they are all waiting for HBase", null, null);
        }
    }
}
