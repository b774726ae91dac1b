package io.hbasesessions.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * How long and how much each part runs. {@code QUICK} fits in under 3 minutes, {@code FULL} is the run
 * the published results come from, {@code SMOKE} is the few seconds the build's test spends on it.
 */
public enum Sizes {
    // The build's test checks that each part produces its tables, not its figures: each loop runs well under a second,
    // long enough to go through its code a few hundred times; rewrites take only the count the test looks for.
    SMOKE(ms(50), ms(100), 200, 500, ms(300), ms(200), ms(300), 50, 300, 0, 1, ms(200), 100, 60, ms(1_000), 800,
            List.of(100), 100, 2, 2, Duration.ofSeconds(5)),
    QUICK(ms(500), ms(1_500), 2_000, 20_000, ms(2_000), ms(1_000), ms(3_000), 1_000, 5_000, 1, 2, ms(500), 1_000, 150,
            ms(10_000), 10_000, List.of(10, 100, 1_000, 10_000), 400, 25, 10, Duration.ofSeconds(10)),
    FULL(ms(3_000), ms(15_000), 20_000, 1_000_000, ms(30_000), ms(10_000), ms(20_000), 1_000, 100_000, 2, 5, ms(2_000),
            3_000, 200, ms(20_000), 100_000, List.of(10, 100, 1_000, 10_000), 2_000, 50, 20, Duration.ofSeconds(30));

    /** Store benchmark: warm-up and measured time of each operation at each thread count. */
    final Duration storeWarmup;
    final Duration storeMeasured;
    /** Store benchmark: sessions created before the load, save, touch and conflict runs. */
    final int storeSessions;
    /** Scale: sessions created, and how long they are then loaded at random. */
    final int scaleSessions;
    final Duration scaleLoads;
    /** HTTP: warm-up and measured time of each workload on each container and store (wrk takes whole seconds). */
    final Duration httpWarmup;
    final Duration httpMeasured;
    /** HTTP: the sessions each node serves, every request picking one at random (issue #29: 1,000). */
    final int httpSessions;
    /** HTTP: sessions alive on the Tomcat node when its heap is measured. */
    final int heapSessions;
    /** JMH: forks (0 runs in this JVM), measured iterations (warm-up iterations are half, at least 1), iteration time. */
    final int jmhForks;
    final int jmhIterations;
    final Duration jmhIterationTime;
    /** Failover: sessions, the load's rate, and how long it runs before the kill and after the recovery. */
    final int failoverSessions;
    final double failoverRequestsPerSecond;
    final Duration failoverSteady;
    /** Shiro: sessions that go through the 5 DAO operations (the talk's benchmark: 100,000). */
    final int shiroSessions;
    /** Rewrites: how often each row is rewritten before a step, the reads of each kind and the writes per row of a step. */
    final List<Integer> rewriteCounts;
    final int rewriteReads;
    final int rewriteWritesPerRow;
    /** Propagation: trials per setup, and how long node 1 is asked before a trial counts as not seen. */
    final int propagationTrials;
    final Duration propagationCap;

    Sizes(Duration storeWarmup, Duration storeMeasured, int storeSessions, int scaleSessions, Duration scaleLoads,
            Duration httpWarmup, Duration httpMeasured, int httpSessions, int heapSessions, int jmhForks, int jmhIterations,
            Duration jmhIterationTime, int failoverSessions, double failoverRequestsPerSecond, Duration failoverSteady,
            int shiroSessions, List<Integer> rewriteCounts, int rewriteReads, int rewriteWritesPerRow,
            int propagationTrials, Duration propagationCap) {
        this.storeWarmup = storeWarmup;
        this.storeMeasured = storeMeasured;
        this.storeSessions = storeSessions;
        this.scaleSessions = scaleSessions;
        this.scaleLoads = scaleLoads;
        this.httpWarmup = httpWarmup;
        this.httpMeasured = httpMeasured;
        this.httpSessions = httpSessions;
        this.heapSessions = heapSessions;
        this.jmhForks = jmhForks;
        this.jmhIterations = jmhIterations;
        this.jmhIterationTime = jmhIterationTime;
        this.failoverSessions = failoverSessions;
        this.failoverRequestsPerSecond = failoverRequestsPerSecond;
        this.failoverSteady = failoverSteady;
        this.shiroSessions = shiroSessions;
        this.rewriteCounts = rewriteCounts;
        this.rewriteReads = rewriteReads;
        this.rewriteWritesPerRow = rewriteWritesPerRow;
        this.propagationTrials = propagationTrials;
        this.propagationCap = propagationCap;
    }

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }
}
