package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Report;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * Part 3c: one session written by many requests at once (tabs, parallel XHR), over two nodes of different
 * containers sharing one HBase table: first one writer on one node, then {@link #WRITERS} writers, half on each
 * node, every request changing the session. What concurrency costs: throughput, the tail as a ratio to one
 * writer's, failed requests, and the conflicts (a write that found another's newer version and merged onto it)
 * and HBase round trips per write, from the stores' own counters.
 */
public final class HotSessionBenchmark {

    /** Issue #29: 16 concurrent writers on one session over two nodes. */
    public static final int WRITERS = 16;

    private final Candidate first;
    private final Candidate second;
    private final LoadGenerator load;
    private final LongSupplier hbasePid;
    private final Path workDirectory;
    private final boolean profile;

    /**
     * {@code first} and {@code second}: the two nodes' HBase candidates, on one table and key scope; with
     * {@code profile} each node records a JFR profile.
     */
    public HotSessionBenchmark(Candidate first, Candidate second, LoadGenerator load, LongSupplier hbasePid,
            Path workDirectory, boolean profile) {
        this.first = first;
        this.second = second;
        this.load = load;
        this.hbasePid = hbasePid;
        this.workDirectory = workDirectory;
        this.profile = profile;
    }

    private record Row(String writers, List<LoadResult> loads, Map<String, Long> counters, Duration hbaseCpu) {

        long requests() {
            return loads.stream().mapToLong(LoadResult::requestsSent).sum();
        }

        double requestsPerSecond() {
            return loads.stream().mapToDouble(LoadResult::requestsPerSecond).sum();
        }

        /** Each node's p50 and p99, in the order of the nodes. */
        String perNode() {
            return String.join(" / ", loads.stream().map(load -> Report.number(load.p50Millis()) + ", "
                    + Report.number(load.p99Millis())).toList());
        }

        double worstP99() {
            return loads.stream().mapToDouble(LoadResult::p99Millis).max().orElseThrow();
        }

        long errors() {
            return loads.stream().mapToLong(LoadResult::errors).sum();
        }

        double perRequest(String counter) {
            return (double) counters.get(counter) / requests();
        }
    }

    public void run(Report report, Duration warmup, Duration measured) throws Exception {
        report.heading("3c. One hot session: " + WRITERS + " concurrent writers over two nodes");
        List<Row> rows = new ArrayList<>();
        try (ControlledNode one = start(first); ControlledNode other = start(second)) {
            List<String> cookie = JavaLoadGenerator.createSessions(one.baseUri(), 1, 1, Duration.ofMinutes(1));
            rows.add(measure("1 (" + first.container() + ")", List.of(one), new Traffic(cookie, 1, 1), warmup,
                    measured));
            Traffic half = new Traffic(cookie, WRITERS / 2, HttpBenchmark.GENERATOR_THREADS);
            rows.add(measure(WRITERS + " (" + WRITERS / 2 + " on " + first.container() + ", " + WRITERS / 2 + " on "
                    + second.container() + ")", List.of(one, other), half, warmup, measured));
        }
        Row single = rows.get(0);
        List<List<String>> cells = new ArrayList<>();
        for (Row row : rows) {
            cells.add(Report.cells(row.writers(), Report.number(row.requestsPerSecond()), row.perNode(),
                    Report.number(row.worstP99()), Report.ratio(row.worstP99(), single.worstP99()), row.errors(),
                    Report.number(row.perRequest("conflicts")), Report.number(row.perRequest("conflictRetries")),
                    Report.number(row.perRequest("sessionWrites")),
                    Report.number(row.hbaseCpu().toNanos() / 1_000.0 / row.requests())));
        }
        report.table(List.of("writers", "req/s", "p50, p99 ms per node", "p99 ms (worse node)", "p99 vs one writer",
                "failed requests", "conflicts per request", "retries per request", "HBase writes per request",
                "HBase CPU µs/req"), cells);
        report.note(first.label() + " and " + second.label() + " on one table; every request changes the session's "
                + "visit counter and cart (write every request), all with one session's cookie. Load generator: "
                + load.name() + "; warm-up " + Report.seconds(warmup) + " s, measured " + Report.seconds(measured)
                + " s per row, the nodes' loads at the same time. A save that waited for its node's previous write starts "
                + "from it (a conflict, no read); a node writes the changes of all its saves waiting for the row in "
                + "one write; when another node wrote in between, that write reads the row and tries again (a retry "
                + "when that fails too). Target (issue #29): no failed request, p99 at most 5x one writer's.");
    }

    private Row measure(String writers, List<ControlledNode> nodes, Traffic traffic, Duration warmup,
            Duration measured) throws Exception {
        List<Map<String, Long>> before = new ArrayList<>();
        for (ControlledNode node : nodes) {
            before.add(node.counters());
        }
        Duration hbaseCpuBefore = ProcessCpu.of(hbasePid.getAsLong());
        ExecutorService loads = Executors.newFixedThreadPool(nodes.size());
        List<LoadResult> results = new ArrayList<>();
        try {
            List<Future<LoadResult>> running = new ArrayList<>();
            for (ControlledNode node : nodes) {
                running.add(loads.submit(() -> load.run(node.baseUri(), Workload.WRITE_EVERY_REQUEST, traffic, warmup,
                        measured)));
            }
            for (Future<LoadResult> result : running) {
                results.add(result.get());
            }
        } finally {
            loads.shutdownNow();
        }
        Duration hbaseCpu = ProcessCpu.of(hbasePid.getAsLong()).minus(hbaseCpuBefore);
        Map<String, Long> counted = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            Map<String, Long> earlier = before.get(i);
            nodes.get(i).counters().forEach((name, value) -> counted.merge(name, value - earlier.getOrDefault(name, 0L),
                    Long::sum));
        }
        return new Row(writers, results, counted, hbaseCpu);
    }

    private ControlledNode start(Candidate candidate) throws Exception {
        return ControlledNode.start(candidate, workDirectory.resolve(candidate.name() + "-hot"),
                workDirectory.resolve(candidate.name() + "-hot.log"), profile);
    }
}
