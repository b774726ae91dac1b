package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.Jmh;
import io.hbasesessions.benchmarks.Report;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/**
 * Part 2c: the store's cost of one request ({@link RequestCostBenchmark}) by what the request does
 * with the realistic session, as ratios to a request that reads nothing, measured in the same run.
 */
public final class RequestCostReport {

    /** The benchmarks from the request that reads nothing, the baseline, to the one that writes. */
    private static final List<String> REQUESTS = List.of("loadOnly", "readOneOfSix", "readAllSix", "writeOne");

    private RequestCostReport() {
    }

    public static void run(Report report, String zookeeperQuorum, int forks, int iterations, Duration iterationTime)
            throws RunnerException {
        report.heading("2c. Store cost per request of the realistic session (JMH)");
        var options = Jmh.options(RequestCostBenchmark.class, forks, iterations, iterationTime)
                .param("zookeeperQuorum", zookeeperQuorum)
                .addProfiler(GCProfiler.class)
                .build();
        Map<String, RunResult> results = new HashMap<>();
        for (RunResult result : new Runner(options).run()) {
            String method = result.getParams().getBenchmark();
            results.put(method.substring(method.lastIndexOf('.') + 1), result);
        }
        RunResult baseline = results.get(REQUESTS.get(0));
        List<List<String>> rows = new ArrayList<>();
        for (String request : REQUESTS) {
            RunResult result = results.get(request);
            rows.add(Report.cells(request, Report.number(meanMicros(result)),
                    Report.ratio(meanMicros(result), meanMicros(baseline)), Report.number(medianMicros(result)),
                    Report.ratio(medianMicros(result), medianMicros(baseline)),
                    Report.count(Math.round(allocatedBytes(result))),
                    Report.ratio(allocatedBytes(result), allocatedBytes(baseline)),
                    // Every request loads once: writes per load are writes per request.
                    Report.number(secondary(result, "sessionWrites") / secondary(result, "loads"))
                            + " session writes"));
        }
        report.table(List.of("request", "mean µs", "vs loadOnly", "p50 µs", "vs loadOnly", "bytes allocated/op",
                "vs loadOnly", "per op (store counters)"), rows);
        report.note(String.format("One thread, the store's default settings, a random session of %d per request: "
                + "load, then loadOnly reads no attribute, readOneOfSix the cart, readAllSix all six, writeOne "
                + "changes the cart in place and sets it again; then a save with the access time moved to now "
                + "(the touch is not due, so only writeOne writes: a CheckAndMutate, SYNC_WAL). Every request is "
                + "timed: a few slow ones (a collection, an HBase flush) move the mean, not the median. Bytes "
                + "allocated are JMH's gc.alloc.rate.norm over every thread of the JVM that runs the benchmark "
                + "(the HBase client's included, the HBase server's not). JMH: %d fork(s), %d iterations of %d ms.",
                RequestCostBenchmark.SESSIONS, forks, iterations, iterationTime.toMillis()));
    }

    private static double meanMicros(RunResult result) {
        return result.getPrimaryResult().getScore();
    }

    private static double medianMicros(RunResult result) {
        return result.getPrimaryResult().getStatistics().getPercentile(50);
    }

    private static double allocatedBytes(RunResult result) {
        return secondary(result, "gc.alloc.rate.norm");
    }

    private static double secondary(RunResult result, String label) {
        Result<?> secondary = result.getSecondaryResults().get(label);
        return secondary == null ? Double.NaN : secondary.getScore();
    }
}
