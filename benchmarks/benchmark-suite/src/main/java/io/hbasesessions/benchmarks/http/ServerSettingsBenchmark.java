package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.http.HttpBenchmark.Result;
import io.hbasesessions.embedded.EmbeddedHBase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What region server settings change: the Tomcat node with the HBase store, through both workloads,
 * against a fresh standalone HBase with HBase's own defaults and then with the settings given, in the same
 * run, each row as a ratio to the defaults.
 */
public final class ServerSettingsBenchmark {

    private final Function<Map<String, String>, EmbeddedHBase> startHBase;
    private final Function<String, Candidate> candidateOnQuorum;
    private final LoadGenerator load;
    private final Path workDirectory;
    private final int sessions;

    /**
     * @param startHBase starts a fresh standalone HBase with these server settings
     * @param candidateOnQuorum the candidate to measure, on the given ZooKeeper quorum
     * @param sessions the sessions the load picks from, as in section 3
     */
    public ServerSettingsBenchmark(Function<Map<String, String>, EmbeddedHBase> startHBase,
            Function<String, Candidate> candidateOnQuorum, LoadGenerator load, Path workDirectory, int sessions) {
        this.startHBase = startHBase;
        this.candidateOnQuorum = candidateOnQuorum;
        this.load = load;
        this.workDirectory = workDirectory;
        this.sessions = sessions;
    }

    public void run(Report report, Map<String, String> settings, Duration warmup, Duration measured) throws Exception {
        heading(report);
        Map<Workload, Result> defaults = measureOnFresh("defaults", Map.of(), warmup, measured);
        tabulate(report, settings, defaults, measureOnFresh("tuned", settings, warmup, measured), warmup, measured);
    }

    /**
     * The build's smoke run: HBase's defaults only, on {@code running}, an HBase already started with them, instead of
     * two fresh ones; the rows of {@code settings} say that they were not run.
     */
    public void runDefaultsOn(EmbeddedHBase running, Report report, Map<String, String> settings, Duration warmup,
            Duration measured) throws Exception {
        heading(report);
        tabulate(report, settings, measure(running, "defaults", warmup, measured), Map.of(), warmup, measured);
    }

    private static void heading(Report report) {
        report.heading("3b. HBase server settings: HBase's defaults against settings sized for a small machine");
    }

    private void tabulate(Report report, Map<String, String> settings, Map<Workload, Result> defaults,
            Map<Workload, Result> tuned, Duration warmup, Duration measured) {
        List<List<String>> rows = new ArrayList<>();
        for (Workload workload : Workload.values()) {
            rows.add(row("HBase 2.6 defaults", defaults.get(workload), defaults.get(workload)));
            rows.add(tuned.containsKey(workload) ? row(describe(settings), tuned.get(workload), defaults.get(workload))
                    : Report.cells(describe(settings), workload.label(), "not run in the smoke run", "", "", "", "", "", ""));
        }
        report.table(List.of("server settings", "workload", "req/s", "vs defaults", "p50 ms", "p99 ms",
                "node CPU µs/req", "HBase CPU µs/req", "vs defaults"), rows);
        report.note((tuned.isEmpty() ? "The smoke run's defaults on the suite's HBase" : "One fresh standalone HBase per "
                + "settings") + ", the same node program and store defaults; "
                + candidateOnQuorum.apply("-").label() + ", " + HttpBenchmark.CONNECTIONS + " connections over "
                + Report.count(sessions) + " sessions; warm-up "
                + Report.seconds(warmup) + " s, measured " + Report.seconds(measured) + " s per row. CPU per request as in "
                + "section 3.");
    }

    private Map<Workload, Result> measureOnFresh(String name, Map<String, String> settings, Duration warmup,
            Duration measured) throws Exception {
        try (EmbeddedHBase hbase = startHBase.apply(settings)) {
            return measure(hbase, name, warmup, measured);
        }
    }

    private Map<Workload, Result> measure(EmbeddedHBase hbase, String name, Duration warmup, Duration measured)
            throws Exception {
        Map<Workload, Result> results = new EnumMap<>(Workload.class);
        Candidate candidate = candidateOnQuorum.apply(hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        Path node = workDirectory.resolve(name);
        try (ControlledNode started = ControlledNode.start(candidate, node, node.resolveSibling(name + ".log"), false)) {
            Traffic traffic = HttpBenchmark.traffic(started, sessions);
            for (Workload workload : Workload.values()) {
                results.put(workload, HttpBenchmark.measure(started, candidate, workload, load, traffic, hbase::pid,
                        warmup, measured));
            }
        }
        return results;
    }

    private static List<String> row(String settings, Result result, Result defaults) {
        LoadResult measured = result.load();
        return Report.cells(settings, result.workload().label(), Report.number(measured.requestsPerSecond()),
                Report.ratio(measured.requestsPerSecond(), defaults.load().requestsPerSecond()),
                Report.number(measured.p50Millis()), Report.number(measured.p99Millis()),
                Report.number(result.nodeCpuMicros()), Report.number(result.backendCpuMicros()),
                Report.ratio(result.backendCpuMicros(), defaults.backendCpuMicros()));
    }

    private static String describe(Map<String, String> settings) {
        List<String> pairs = new ArrayList<>();
        new TreeMap<>(settings).forEach((name, value) -> pairs.add("`" + name + "=" + value + "`"));
        return String.join(", ", pairs);
    }
}
