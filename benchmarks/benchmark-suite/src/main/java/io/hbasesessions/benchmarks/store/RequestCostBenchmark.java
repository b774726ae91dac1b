package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.webapp.BenchmarkSession;
import io.hbasesessions.benchmarks.webapp.Cart;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoredSession;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the store costs one request of the realistic session, through the public API against the
 * embedded HBase: a load, what the request reads or writes, and the save that ends it. Each
 * invocation takes a random session of a pool created for the trial, so that requests spread over
 * rows as a site's do instead of reading one row HBase has just served.
 */
@State(Scope.Benchmark)
// Every request timed, so that the report can give the median beside the mean, which outliers move.
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RequestCostBenchmark {

    private static final String TABLE = "bench_request";
    /** Enough that two requests in a row rarely share a session; all of them fit HBase's block cache. */
    static final int SESSIONS = 500;

    private static final List<String> ALL_SIX = List.of(BenchmarkSession.USER, BenchmarkSession.CART,
            BenchmarkSession.VISITS, BenchmarkSession.LAST_PAGE, BenchmarkSession.CSRF_TOKEN,
            BenchmarkSession.LAST_SEEN_MILLIS);

    /** The embedded HBase's ZooKeeper, host:port; a parameter so that it reaches forked JVMs too. */
    @Param({})
    public String zookeeperQuorum;

    private SessionStore store;
    private final List<String> ids = new ArrayList<>();

    @Setup(Level.Trial)
    public void openStoreAndCreateSessions() {
        store = SessionStores.open(Sessions.storeSettings(zookeeperQuorum, TABLE), Sessions.WEBAPP);
        for (int user = 0; user < SESSIONS; user++) {
            ids.add(Sessions.create(store, user).record().id());
        }
    }

    @TearDown(Level.Trial)
    public void closeStore() {
        store.close();
    }

    /** The baseline: a request that reads no attribute; its save finds nothing to write, the touch not due. */
    @Benchmark
    public SaveResult loadOnly(StoreCalls storeCalls) {
        StoredSession session = loadAny();
        return endRequest(session);
    }

    /** A request that reads the cart: one attribute decoded, and re-encoded by the save's dirty check. */
    @Benchmark
    public SaveResult readOneOfSix(Blackhole blackhole, StoreCalls storeCalls) {
        StoredSession session = loadAny();
        blackhole.consume(session.attributes().get(BenchmarkSession.CART));
        return endRequest(session);
    }

    /** A request that reads every attribute: the immutable ones are decoded but not re-encoded. */
    @Benchmark
    public SaveResult readAllSix(Blackhole blackhole, StoreCalls storeCalls) {
        StoredSession session = loadAny();
        ALL_SIX.forEach(name -> blackhole.consume(session.attributes().get(name)));
        return endRequest(session);
    }

    /** A request that changes the cart in place and sets it again, as the webapp's /write does: one CheckAndMutate. */
    @Benchmark
    public SaveResult writeOne(StoreCalls storeCalls) {
        StoredSession session = loadAny();
        Cart cart = (Cart) session.attributes().get(BenchmarkSession.CART);
        cart.addOneOf(ThreadLocalRandom.current().nextInt(), Instant.now());
        session.attributes().put(BenchmarkSession.CART, cart);
        return endRequest(session);
    }

    private StoredSession loadAny() {
        return store.load(ids.get(ThreadLocalRandom.current().nextInt(ids.size()))).orElseThrow();
    }

    /** As a container ends a request: the session saved with the access time moved to now. */
    private SaveResult endRequest(StoredSession session) {
        return store.save(session, Sessions.accessedAt(session, Instant.now()));
    }

    /**
     * The store's own count of loads and session writes during each measured iteration, which JMH sums
     * over iterations and forks: their ratio is what a request wrote to HBase. Every benchmark takes it
     * as an argument only so that JMH reports it.
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class StoreCalls {
        public long loads;
        public long sessionWrites;
        private StoreCounters before;

        @Setup(Level.Iteration)
        public void countFrom(RequestCostBenchmark benchmark) {
            before = benchmark.store.counters();
        }

        @TearDown(Level.Iteration)
        public void countTo(RequestCostBenchmark benchmark) {
            StoreCounters after = benchmark.store.counters();
            loads = after.get(StoreCounter.LOADS) - before.get(StoreCounter.LOADS);
            sessionWrites = after.sessionWrites() - before.sessionWrites();
        }
    }
}
