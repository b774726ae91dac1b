package io.hbasesessions.benchmarks.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** wrk is not installed where the build runs, so its output is parsed from a recorded run. */
class WrkLoadGeneratorTest {

    private static final String OUTPUT = """
            Running 20s test @ http://127.0.0.1:41234/
              16 threads and 16 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency     1.10ms    2.31ms  48.12ms   94.10%
                Req/Sec     1.02k   120.33     1.51k    71.25%
              Latency Distribution
                 50%  612.00us
                 75%    0.98ms
                 90%    1.87ms
                 99%   12.40ms
              325122 requests in 20.01s, 48.12MB read
              Socket errors: connect 0, read 2, write 0, timeout 1
              Non-2xx or 3xx responses: 4
            Requests/sec:  16248.01
            Transfer/sec:      2.40MB
            """;

    @Test
    void readsCountsPercentilesAndErrors() {
        LoadResult result = WrkLoadGenerator.parse(OUTPUT, 1000);

        assertEquals(325_122, result.requests());
        assertEquals(20.01, result.seconds(), 1e-9);
        assertEquals(0.612, result.p50Millis(), 1e-9);
        assertEquals(12.40, result.p99Millis(), 1e-9);
        assertEquals(7, result.errors());
        assertEquals(326_122, result.requestsSent());
    }
}
