package io.hbasesessions.benchmarks;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * What one timed run measured: how many operations in how long, their latencies (nanoseconds), and
 * how many calls the warm-up made before.
 */
public record Measurement(long operations, long warmupOperations, double seconds, Histogram latencies) {

    /** Latencies from 1 microsecond to 1 minute, 3 significant digits. */
    static Histogram newHistogram() {
        return new Histogram(TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MINUTES.toNanos(1), 3);
    }

    public double perSecond() {
        return operations / seconds;
    }

    public double p50Millis() {
        return percentileMillis(50);
    }

    public double p99Millis() {
        return percentileMillis(99);
    }

    private double percentileMillis(double percentile) {
        return latencies.getValueAtPercentile(percentile) / 1_000_000.0;
    }
}
