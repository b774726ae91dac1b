package io.hbasesessions.benchmarks.http;

import java.net.URI;
import java.time.Duration;

/**
 * Drives a node's {@code /app/} with one session per connection: each connection's first request
 * creates its session ({@code init}) and every later one replays its cookie.
 */
public interface LoadGenerator {

    String name();

    /** Warms up, then measures; bounded by {@code warmup + measured} and never runs longer. */
    LoadResult run(URI app, Workload workload, int connections, Duration warmup, Duration measured) throws Exception;
}
