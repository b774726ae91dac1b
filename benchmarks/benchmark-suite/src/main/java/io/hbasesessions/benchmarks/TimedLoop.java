package io.hbasesessions.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * Runs an operation on several threads for a warm-up, then for a measured time, and records each
 * measured call's latency. Bounded in time and in count: each thread stops at the deadline or after
 * {@code maxOperationsPerThread}, whichever comes first.
 */
public final class TimedLoop {

    /** One thread's operation; {@code iteration} counts that thread's calls from 0. */
    @FunctionalInterface
    public interface Operation {
        void run(int thread, long iteration) throws Exception;
    }

    private final Duration warmup;
    private final Duration measured;
    private final long maxOperationsPerThread;

    public TimedLoop(Duration warmup, Duration measured, long maxOperationsPerThread) {
        this.warmup = warmup;
        this.measured = measured;
        this.maxOperationsPerThread = maxOperationsPerThread;
    }

    /** Throws the first failure of any thread: a benchmark that fails measures nothing worth reporting. */
    public Measurement run(int threads, Operation operation) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long start = System.nanoTime();
            long measuredFrom = start + warmup.toNanos();
            long end = measuredFrom + measured.toNanos();
            LongAdder warmupCalls = new LongAdder();
            List<Future<Histogram>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                workers.add(pool.submit(() -> loop(thread, operation, measuredFrom, end, warmupCalls)));
            }
            Histogram all = Measurement.newHistogram();
            for (Future<Histogram> worker : workers) {
                all.add(worker.get());
            }
            double seconds = (Math.min(System.nanoTime(), end) - measuredFrom) / 1e9;
            return new Measurement(all.getTotalCount(), warmupCalls.sum(), seconds, all);
        } finally {
            pool.shutdownNow();
        }
    }

    private Histogram loop(int thread, Operation operation, long measuredFrom, long end, LongAdder warmupCalls)
            throws Exception {
        Histogram latencies = Measurement.newHistogram();
        for (long i = 0; i < maxOperationsPerThread; i++) {
            long before = System.nanoTime();
            if (before >= end) {
                break;
            }
            operation.run(thread, i);
            if (before >= measuredFrom) {
                latencies.recordValue(Math.min(System.nanoTime() - before, latencies.getHighestTrackableValue()));
            } else {
                warmupCalls.increment();
            }
        }
        return latencies;
    }
}
