package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.Measurement;
import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.TimedLoop;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StateProtection;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

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
        try (SessionStore store = SessionStores.open(settings, Sessions.WEBAPP);
                SessionStore touchingStore = SessionStores.open(settings.toBuilder()
                        .set(Setting.TOUCH_INTERVAL_SECONDS, 0L).build(), Sessions.WEBAPP)) {
            List<StoredSession> pool = createPool(store);
            List<List<String>> rows = new ArrayList<>();
            for (int threads : THREADS) {
                rows.add(row("load", threads, store, "Gets", StoreCounter.LOADS, (t, i) -> load(store, pool)));
                rows.add(row("create", threads, store, "creates", StoreCounter.CREATES,
                        (t, i) -> Sessions.create(store, users.incrementAndGet())));
                // Each thread writes its share of the pool through copies read just before its run, so that no
                // save or touch starts from a state the previous run replaced (that would be a merge).
                List<StoredSession> saved = currentCopies(store, pool);
                rows.add(row("save with change", threads, store, "full writes", StoreCounter.FULL_WRITES,
                        (t, i) -> saveWithChange(store, saved, threads, t, i)));
                List<StoredSession> touched = currentCopies(touchingStore, pool);
                rows.add(row("touch", threads, touchingStore, "touches", StoreCounter.TOUCHES,
                        (t, i) -> touch(touchingStore, touched, threads, t, i)));
                List<StoredSession[]> racing = racingCopies(store, threads);
                rows.add(row("save after conflict", threads, store, "conflicts", StoreCounter.CONFLICTS,
                        (t, i) -> saveAfterConflict(store, racing.get(t), i)));
            }
            report.table(List.of("operation", "threads", "ops/s", "p50 ms", "p99 ms", "per op (store counters)"), rows);
        }
        report.note("load: one Get of a random session of " + sessions + ". create: CheckAndMutate ifNotExists, "
                + "SYNC_WAL. save with change: the cart changed, CheckAndMutate ifEquals on the version, SYNC_WAL. "
                + "touch: access time only, ASYNC_WAL (touchIntervalSeconds=0 so that every touch writes). save "
                + "after conflict: two copies of one session write in turn, so each save is from a stale copy: its "
                + "CheckAndMutate fails, and the store re-reads, merges this request's change and writes again "
                + "(2 CheckAndMutates + 1 Get; the other copy's write is counted in the time too).");
    }

    /**
     * Part 2b: load and save with change at one thread under each {@code stateProtection}, each mode on
     * sessions of its own, as ratios to {@code none} measured in the same run. The modes take turns over
     * three rounds, each starting with the next mode so that no mode always runs first; the first round
     * only warms the JIT and HBase, the mean of the other two is reported.
     */
    public void runStateProtection(Report report, Path keyFile) throws Exception {
        report.heading("2b. stateProtection through the store against the embedded HBase");
        Map<StateProtection, SessionStore> stores = new EnumMap<>(StateProtection.class);
        Map<StateProtection, List<Measurement>> loads = new EnumMap<>(StateProtection.class);
        Map<StateProtection, List<Measurement>> saves = new EnumMap<>(StateProtection.class);
        try {
            Map<StateProtection, List<StoredSession>> pools = new EnumMap<>(StateProtection.class);
            for (StateProtection mode : StateProtection.values()) {
                stores.put(mode, SessionStores.open(settings.toBuilder().set(Setting.STATE_PROTECTION, mode)
                        .set(Setting.STATE_KEY_FILE, keyFile)
                        .set(Setting.KEY_SCOPE, settings.get(Setting.KEY_SCOPE) + "/" + mode.name().toLowerCase())
                        .build(), Sessions.WEBAPP));
                pools.put(mode, createPool(stores.get(mode)));
                loads.put(mode, new ArrayList<>());
                saves.put(mode, new ArrayList<>());
            }
            StateProtection[] modes = StateProtection.values();
            for (int round = 0; round < 3; round++) {
                for (int turn = 0; turn < modes.length; turn++) {
                    StateProtection mode = modes[(round + turn) % modes.length];
                    SessionStore store = stores.get(mode);
                    List<StoredSession> pool = pools.get(mode);
                    Measurement load = loop.run(1, (t, i) -> load(store, pool));
                    List<StoredSession> saved = currentCopies(store, pool);
                    Measurement save = loop.run(1, (t, i) -> saveWithChange(store, saved, 1, t, i));
                    if (round > 0) {
                        loads.get(mode).add(load);
                        saves.get(mode).add(save);
                    }
                }
            }
            for (StateProtection mode : StateProtection.values()) {
                if (stores.get(mode).counters().get(StoreCounter.FORGED_STATES) != 0) {
                    throw new IllegalStateException("The store found its own cells forged under " + mode);
                }
            }
        } finally {
            stores.values().forEach(SessionStore::close);
        }
        List<List<String>> rows = new ArrayList<>();
        double noneLoads = mean(loads.get(StateProtection.NONE), Measurement::perSecond);
        double noneSaves = mean(saves.get(StateProtection.NONE), Measurement::perSecond);
        for (StateProtection mode : StateProtection.values()) {
            double loadsPerSecond = mean(loads.get(mode), Measurement::perSecond);
            double savesPerSecond = mean(saves.get(mode), Measurement::perSecond);
            rows.add(Report.cells(mode.name().toLowerCase(), Report.number(loadsPerSecond),
                    Report.number(mean(loads.get(mode), Measurement::p50Millis)), Report.ratio(noneLoads, loadsPerSecond),
                    Report.number(savesPerSecond), Report.number(mean(saves.get(mode), Measurement::p50Millis)),
                    Report.ratio(noneSaves, savesPerSecond)));
        }
        report.table(List.of("stateProtection", "load ops/s", "load p50 ms", "time vs none", "save ops/s",
                "save p50 ms", "time vs none"), rows);
        report.note("One thread; load and save with change as in section 2, each mode on " + sessions + " sessions "
                + "of its own. \"time vs none\" is the time per operation divided by that of none in this run "
                + "(above 1: slower); means of two rounds in which the modes take turns, after one round of warm-up.");
    }

    private static double mean(List<Measurement> measurements, ToDoubleFunction<Measurement> figure) {
        return measurements.stream().mapToDouble(figure).average().orElse(Double.NaN);
    }

    /** The counter, read before and after, shows that each operation did what its name says. */
    private List<String> row(String operation, int threads, SessionStore store, String counterName,
            StoreCounter counter, TimedLoop.Operation body) throws Exception {
        long before = store.counters().get(counter);
        Measurement measurement = loop.run(threads, body);
        // Warm-up calls count too: divide by every call, not only the measured ones.
        long calls = measurement.operations() + measurement.warmupOperations();
        double perCall = (double) (store.counters().get(counter) - before) / calls;
        return Report.cells(operation, threads, Report.number(measurement.perSecond()),
                Report.number(measurement.p50Millis()), Report.number(measurement.p99Millis()),
                Report.number(perCall) + " " + counterName);
    }

    private List<StoredSession> createPool(SessionStore store) throws Exception {
        List<StoredSession> pool = Collections.synchronizedList(new ArrayList<>());
        new TimedLoop(Duration.ZERO, Duration.ofMinutes(10), sessions / 8).run(8,
                (t, i) -> pool.add(Sessions.create(store, users.incrementAndGet())));
        return new ArrayList<>(pool);
    }

    private static List<StoredSession> currentCopies(SessionStore store, List<StoredSession> pool) {
        List<StoredSession> copies = new ArrayList<>();
        for (StoredSession session : pool) {
            copies.add(store.load(session.record().id()).orElseThrow());
        }
        return copies;
    }

    private static void load(SessionStore store, List<StoredSession> pool) {
        String id = pool.get(ThreadLocalRandom.current().nextInt(pool.size())).record().id();
        if (store.load(id).isEmpty()) {
            throw new IllegalStateException("A stored session was not found");
        }
    }

    /** Each thread writes its own share of the sessions, so that only the conflict benchmark conflicts. */
    private static void saveWithChange(SessionStore store, List<StoredSession> owned, int threads, int thread,
            long iteration) {
        StoredSession session = owned.get(ownedIndex(owned.size(), threads, thread, iteration));
        expect(SaveResult.WRITTEN, store.save(session, Sessions.change(session, iteration)));
    }

    private static void touch(SessionStore store, List<StoredSession> owned, int threads, int thread, long iteration) {
        StoredSession session = owned.get(ownedIndex(owned.size(), threads, thread, iteration));
        expect(SaveResult.TOUCHED, store.save(session, Sessions.accessedAt(session, Instant.now())));
    }

    /** Two copies of one session: each iteration writes through one, then saves the other, which conflicts. */
    private static void saveAfterConflict(SessionStore store, StoredSession[] copies, long iteration) {
        StoredSession first = copies[(int) (iteration % 2)];
        StoredSession second = copies[(int) ((iteration + 1) % 2)];
        store.save(first, Sessions.change(first, iteration));
        expect(SaveResult.MERGED, store.save(second, Sessions.change(second, iteration)));
    }

    /** A new session per thread, read twice: the two copies race in {@link #saveAfterConflict}. */
    private List<StoredSession[]> racingCopies(SessionStore store, int threads) {
        List<StoredSession[]> copies = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String id = Sessions.create(store, users.incrementAndGet()).record().id();
            copies.add(new StoredSession[] {store.load(id).orElseThrow(), store.load(id).orElseThrow()});
        }
        return copies;
    }

    private static int ownedIndex(int size, int threads, int thread, long iteration) {
        int share = size / threads;
        return thread * share + (int) (iteration % share);
    }

    private static void expect(SaveResult expected, SaveResult result) {
        if (result != expected) {
            throw new IllegalStateException("Expected " + expected + " but the store answered " + result);
        }
    }
}
