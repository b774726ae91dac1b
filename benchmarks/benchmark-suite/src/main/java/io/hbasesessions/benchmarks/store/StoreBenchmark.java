package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.Measurement;
import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.TimedLoop;
import io.hbasesessions.store.LoadedSession;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SaveResult.Outcome;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * Part 2: each store operation at 1 and 8 threads against the embedded HBase, through the public
 * store API with its default settings (SYNC_WAL writes, ASYNC_WAL touches, optimistic locking).
 */
public final class StoreBenchmark {

    static final int[] THREADS = {1, 8};
    /** Bounds every loop in count as well as time. */
    private static final long MAX_OPERATIONS_PER_THREAD = 10_000_000;

    private final StoreSettings settings;
    private final TimedLoop loop;
    private final int sessions;
    private final AtomicLong users = new AtomicLong();

    public StoreBenchmark(StoreSettings settings, Duration warmup, Duration measured, int sessions) {
        this.settings = settings;
        this.loop = new TimedLoop(warmup, measured, MAX_OPERATIONS_PER_THREAD);
        this.sessions = sessions;
    }

    public void run(Report report) throws Exception {
        report.heading("2. Store operations against the embedded HBase");
        // Touches are debounced to one per touchIntervalSeconds; a second store with 0 writes every one.
        try (SessionStore store = SessionStores.open(settings);
                SessionStore touchingStore = SessionStores.open(settings.toBuilder().touchIntervalSeconds(0).build())) {
            List<LoadedSession> pool = createPool(store);
            // The latest version of each pool session, which the save and touch runs keep current.
            List<LoadedSession> owned = new ArrayList<>(pool);
            List<List<String>> rows = new ArrayList<>();
            for (int threads : THREADS) {
                rows.add(row("load", threads, store, "Gets", StoreCounters::loads, (t, i) -> load(store, pool)));
                rows.add(row("create", threads, store, "creates", StoreCounters::creates,
                        (t, i) -> store.create(Sessions.newRecord(users.incrementAndGet()))));
                rows.add(row("save with change", threads, store, "full writes", StoreCounters::fullWrites,
                        (t, i) -> saveWithChange(store, owned, threads, t, i)));
                rows.add(row("touch", threads, touchingStore, "touches", StoreCounters::touches,
                        (t, i) -> touch(touchingStore, owned, threads, t, i)));
                List<LoadedSession> stale = staleCopies(store, threads);
                rows.add(row("save after conflict", threads, store, "conflicts", StoreCounters::conflicts,
                        (t, i) -> saveAfterConflict(store, stale.get(t), i)));
            }
            report.table(List.of("operation", "threads", "ops/s", "p50 ms", "p99 ms", "per op (store counters)"), rows);
        }
        report.note("load: one Get of a random session of " + sessions + ". create: CheckAndMutate ifNotExists, "
                + "SYNC_WAL. save with change: the cart changed, CheckAndMutate ifEquals on the version, SYNC_WAL. "
                + "touch: access time only, ASYNC_WAL (touchIntervalSeconds=0 so that every touch writes). save "
                + "after conflict: a save from a copy whose version is stale, so its CheckAndMutate fails, and the "
                + "store re-reads, merges this request's change and writes again (2 CheckAndMutates + 1 Get).");
    }

    /** The counter, read before and after, shows that each operation did what its name says. */
    private List<String> row(String operation, int threads, SessionStore store, String counterName,
            ToLongFunction<StoreCounters> counter, TimedLoop.Operation body) throws Exception {
        long before = counter.applyAsLong(store.counters());
        Measurement measurement = loop.run(threads, body);
        // Warm-up calls count too: divide by every call, not only the measured ones.
        long calls = measurement.operations() + measurement.warmupOperations();
        double perCall = (double) (counter.applyAsLong(store.counters()) - before) / calls;
        return Report.cells(operation, threads, Report.number(measurement.perSecond()),
                Report.number(measurement.p50Millis()), Report.number(measurement.p99Millis()),
                Report.number(perCall) + " " + counterName);
    }

    private List<LoadedSession> createPool(SessionStore store) throws Exception {
        List<LoadedSession> pool = Collections.synchronizedList(new ArrayList<>());
        new TimedLoop(Duration.ZERO, Duration.ofMinutes(10), sessions / 8).run(8,
                (t, i) -> pool.add(store.create(Sessions.newRecord(users.incrementAndGet()))));
        return new ArrayList<>(pool);
    }

    private static void load(SessionStore store, List<LoadedSession> pool) {
        String id = pool.get(ThreadLocalRandom.current().nextInt(pool.size())).record().id();
        if (store.load(id).isEmpty()) {
            throw new IllegalStateException("A stored session was not found");
        }
    }

    /** Each thread writes its own share of the sessions, so that only the conflict benchmark conflicts. */
    private static void saveWithChange(SessionStore store, List<LoadedSession> owned, int threads, int thread,
            long iteration) {
        int index = ownedIndex(owned.size(), threads, thread, iteration);
        LoadedSession loaded = owned.get(index);
        owned.set(index, expect(Outcome.WRITTEN, store.save(loaded, Sessions.changed(loaded.record(), iteration))));
    }

    private static void touch(SessionStore store, List<LoadedSession> owned, int threads, int thread, long iteration) {
        int index = ownedIndex(owned.size(), threads, thread, iteration);
        LoadedSession loaded = owned.get(index);
        // Strictly later than the stored access time, even within one millisecond.
        Instant accessTime = latest(Instant.now(), loaded.record().lastAccessTime().plusMillis(1));
        owned.set(index, expect(Outcome.TOUCHED, store.touch(loaded, accessTime)));
    }

    private static void saveAfterConflict(SessionStore store, LoadedSession stale, long iteration) {
        expect(Outcome.MERGED, store.save(stale, Sessions.changed(stale.record(), iteration)));
    }

    /**
     * A new session per thread (the pool's are kept current by the other runs), created and then written
     * once more, so that every save from the copy that create returned conflicts.
     */
    private List<LoadedSession> staleCopies(SessionStore store, int threads) {
        List<LoadedSession> stale = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            LoadedSession created = store.create(Sessions.newRecord(users.incrementAndGet()));
            store.save(created, Sessions.changed(created.record(), -1));
            stale.add(created);
        }
        return stale;
    }

    private static int ownedIndex(int size, int threads, int thread, long iteration) {
        int share = size / threads;
        return thread * share + (int) (iteration % share);
    }

    private static LoadedSession expect(Outcome expected, SaveResult result) {
        if (result.outcome() != expected) {
            throw new IllegalStateException("Expected " + expected + " but the store answered " + result.outcome());
        }
        return result.session().orElseThrow();
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
