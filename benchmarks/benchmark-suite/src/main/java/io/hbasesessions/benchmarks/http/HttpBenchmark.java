package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.http.Candidate.Container;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Part 3: the same WAR on the same containers with each session store in turn, two workloads each,
 * every figure also as a ratio to the container's in-memory default measured in this run.
 */
public final class HttpBenchmark {

    /** The setting: 16 connections, one session each. */
    public static final int CONNECTIONS = 16;

    /** The targets for the HBase store's read-mostly throughput as a multiple of a peer's, by the peer's store key. */
    private static final List<PeerTarget> PEER_TARGETS = List.of(
            new PeerTarget(Container.TOMCAT, "redisson", 4.0),
            new PeerTarget(Container.TOMCAT, "persistent", 3.0),
            new PeerTarget(Container.JETTY, "jdbc", 1.3),
            new PeerTarget(Container.JETTY, "jdbc-save0", 2.0));

    private final List<Candidate> candidates;
    private final List<String> notRun;
    private final LoadGenerator load;
    private final Path workDirectory;
    private final Path chartData;
    private final boolean profile;

    /**
     * {@code notRun} says which peers were left out and why (e.g. no Redis given); {@code chartData}
     * receives the throughput ratios as tab-separated values for benchmarks/http.gnuplot.
     */
    public HttpBenchmark(List<Candidate> candidates, List<String> notRun, LoadGenerator load, Path workDirectory,
            Path chartData, boolean profile) {
        this.candidates = candidates;
        this.notRun = notRun;
        this.load = load;
        this.workDirectory = workDirectory;
        this.chartData = chartData;
        this.profile = profile;
    }

    private record PeerTarget(Container container, String storeKey, double minimum) {
    }

    /** A measured candidate and workload. */
    record Result(Candidate candidate, Workload workload, LoadResult load, double hbaseWritesPerRequest) {
    }

    public void run(Report report, Duration warmup, Duration measured) throws Exception {
        report.heading("3. End to end over HTTP, " + CONNECTIONS + " connections, one session each");
        List<Result> results = new ArrayList<>();
        for (Candidate candidate : candidates) {
            try (ControlledNode node = start(candidate)) {
                for (Workload workload : Workload.values()) {
                    Map<String, Long> before = node.counters();
                    LoadResult result = load.run(node.baseUri(), workload, CONNECTIONS, warmup, measured);
                    Map<String, Long> after = node.counters();
                    double writes = candidate.countsHBaseWrites()
                            ? (double) (after.get("sessionWrites") - before.get("sessionWrites")) / result.requestsSent()
                            : Double.NaN;
                    results.add(new Result(candidate, workload, result, writes));
                }
            }
        }
        report.table(List.of("container", "session store", "workload", "req/s", "vs ceiling", "p50 ms", "vs ceiling",
                "p99 ms", "vs ceiling", "added p50 / p99 ms", "HBase writes/req", "errors"), rows(results));
        report.note("Load generator: " + load.name() + "; warm-up " + warmup.toSeconds() + " s, measured "
                + measured.toSeconds() + " s per row. Ceiling: the same container's in-memory sessions in this run. "
                + "Added latency: this row's p50 (p99) minus the ceiling's. HBase writes/req: the store's own "
                + "counters (creates, full writes, touches) over every request sent, warm-up and session creation "
                + "included." + (notRun.isEmpty() ? "" : " Not run: " + String.join("; ", notRun) + "."));
        targets(report, results);
        writeChartData(results);
    }

    /** One line per candidate: its short name, then its throughput as a ratio to the ceiling for each workload. */
    private void writeChartData(List<Result> results) throws IOException {
        StringBuilder data = new StringBuilder("candidate");
        for (Workload workload : Workload.values()) {
            data.append('\t').append('"').append(workload.label()).append('"');
        }
        data.append('\n');
        for (Candidate candidate : candidates) {
            data.append(candidate.name());
            for (Workload workload : Workload.values()) {
                Result result = find(results, candidate.container(), candidate.storeKey()).get(workload);
                data.append('\t').append(String.format(Locale.ROOT, "%.3f", throughputRatio(results, result, null)));
            }
            data.append('\n');
        }
        Files.writeString(chartData, data);
    }

    private ControlledNode start(Candidate candidate) throws Exception {
        return ControlledNode.start(candidate, workDirectory.resolve(candidate.name()),
                workDirectory.resolve(candidate.name() + ".log"), profile);
    }

    private static List<List<String>> rows(List<Result> results) {
        List<List<String>> rows = new ArrayList<>();
        for (Result result : results) {
            LoadResult measured = result.load();
            LoadResult ceiling = baseline(results, result).load();
            rows.add(Report.cells(result.candidate().container(), result.candidate().label(), result.workload().label(),
                    Report.number(measured.requestsPerSecond()),
                    Report.ratio(measured.requestsPerSecond(), ceiling.requestsPerSecond()),
                    Report.number(measured.p50Millis()), Report.ratio(measured.p50Millis(), ceiling.p50Millis()),
                    Report.number(measured.p99Millis()), Report.ratio(measured.p99Millis(), ceiling.p99Millis()),
                    result.candidate().baseline() ? "-" : Report.number(measured.p50Millis() - ceiling.p50Millis())
                            + " / " + Report.number(measured.p99Millis() - ceiling.p99Millis()),
                    Report.number(result.hbaseWritesPerRequest()), measured.errors()));
        }
        return rows;
    }

    /** The targets, checked on this run's figures. */
    private static void targets(Report report, List<Result> results) {
        List<List<String>> rows = new ArrayList<>();
        for (Container container : Container.values()) {
            Map<Workload, Result> hbase = find(results, container, "hbase");
            if (hbase.isEmpty()) {
                continue;
            }
            Result readMostly = hbase.get(Workload.READ_MOSTLY);
            Result writeEvery = hbase.get(Workload.WRITE_EVERY_REQUEST);
            rows.add(target(container + ": read-mostly vs ceiling", ">= 0.25x", throughputRatio(results, readMostly, null), 0.25));
            rows.add(target(container + ": write-every-request vs ceiling", ">= 0.15x",
                    throughputRatio(results, writeEvery, null), 0.15));
            for (PeerTarget peer : PEER_TARGETS) {
                Result peerReadMostly = find(results, container, peer.storeKey()).get(Workload.READ_MOSTLY);
                if (peer.container() == container && peerReadMostly != null) {
                    rows.add(target(container + ": read-mostly vs " + peerReadMostly.candidate().label(),
                            ">= " + peer.minimum() + "x", throughputRatio(results, readMostly, peerReadMostly),
                            peer.minimum()));
                }
            }
            for (Result result : List.of(readMostly, writeEvery)) {
                LoadResult ceiling = baseline(results, result).load();
                rows.add(maximum(container + ": added p50, " + result.workload().label(), 1.0,
                        result.load().p50Millis() - ceiling.p50Millis()));
                rows.add(maximum(container + ": added p99, " + result.workload().label(), 5.0,
                        result.load().p99Millis() - ceiling.p99Millis()));
            }
        }
        report.table(List.of("target (HBase store)", "wanted", "measured", "met?"), rows);
    }

    private static double throughputRatio(List<Result> results, Result result, Result against) {
        Result reference = against != null ? against : baseline(results, result);
        return result.load().requestsPerSecond() / reference.load().requestsPerSecond();
    }

    private static List<String> target(String name, String wanted, double ratio, double minimum) {
        return Report.cells(name, wanted, String.format(Locale.ROOT, "%.2fx", ratio),
                ratio >= minimum ? "met" : String.format(Locale.ROOT, "missed (%.0f%% of the target)", 100 * ratio / minimum));
    }

    private static List<String> maximum(String name, double maximumMillis, double millis) {
        return Report.cells(name, "<= " + Report.number(maximumMillis) + " ms", Report.number(millis) + " ms",
                millis <= maximumMillis ? "met" : "missed by " + Report.number(millis - maximumMillis) + " ms");
    }

    private static Result baseline(List<Result> results, Result of) {
        return results.stream()
                .filter(r -> r.candidate().baseline() && r.candidate().container() == of.candidate().container()
                        && r.workload() == of.workload())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No in-memory baseline for " + of.candidate().container()));
    }

    /** The results of a container's candidate with this store key, by workload. */
    private static Map<Workload, Result> find(List<Result> results, Container container, String storeKey) {
        Map<Workload, Result> found = new LinkedHashMap<>();
        results.stream()
                .filter(r -> r.candidate().container() == container && r.candidate().storeKey().equals(storeKey))
                .forEach(r -> found.put(r.workload(), r));
        return found;
    }
}
