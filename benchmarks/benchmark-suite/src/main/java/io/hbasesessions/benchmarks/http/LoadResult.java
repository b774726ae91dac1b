package io.hbasesessions.benchmarks.http;

/**
 * What a load generator measured over the measured period (the warm-up excluded), and how many
 * requests it sent in all (warm-up and session creation included), which per-request counters divide by.
 */
public record LoadResult(long requests, long errors, double seconds, double p50Millis, double p99Millis,
        long requestsSent) {

    public double requestsPerSecond() {
        return requests / seconds;
    }
}
