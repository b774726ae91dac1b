package io.hbasesessions.benchmarks.http;

import java.net.URI;
import java.time.Duration;

/** Drives a node's {@code /app/}: each request reads or writes the session of a cookie the {@link Traffic} picks. */
public interface LoadGenerator {

    String name();

    /** Warms up, then measures; bounded by {@code warmup + measured} and never runs longer. */
    LoadResult run(URI app, Workload workload, Traffic traffic, Duration warmup, Duration measured) throws Exception;
}
