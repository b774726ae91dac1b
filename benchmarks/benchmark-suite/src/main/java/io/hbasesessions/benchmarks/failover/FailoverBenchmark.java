package io.hbasesessions.benchmarks.failover;

import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.http.Candidate;
import io.hbasesessions.benchmarks.http.Candidate.Container;
import io.hbasesessions.benchmarks.http.ControlledNode;
import io.hbasesessions.embedded.EmbeddedHBaseCluster;
import io.hbasesessions.embedded.EmbeddedHBaseException;
import io.hbasesessions.testing.load.LoadRecord;
import io.hbasesessions.testing.load.Outcome;
import io.hbasesessions.testing.load.SessionEndpoints;
import io.hbasesessions.testing.load.Verification;
import io.hbasesessions.testing.load.VerifiedLoad;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;

/**
 * Issue #13 item 3: one Tomcat and one Jetty node share the benchmark's sessions on a cluster of 3
 * region servers under a bounded open load of reads and writes (each request of a session on the other
 * node than the one before), then a fault of the region server holding the most session regions:
 * {@code kill -9}, or a pause ({@code SIGSTOP}, then {@code SIGCONT}) to show what a short ZooKeeper
 * session timeout costs. Per second: answers by outcome, latency, the machine; the master's detection and reassignment times;
 * afterwards every session is read back on both nodes against the writes acknowledged to it. Each
 * {@link Scenario} runs on a fresh cluster; the timelines are written as {@code failover-<name>.tsv} and
 * listed in {@code failover.charts}, from which run.sh draws {@code failover-<name>.png}.
 */
public final class FailoverBenchmark {

    /**
     * One run: the cluster's ZooKeeper session timeout, whether its region servers replicate to region
     * replicas, the store settings it adds to the defaults, and the fault: {@code kill -9}, or with
     * {@code pause} a {@code SIGSTOP} of that long (a GC pause, a frozen VM) before {@code SIGCONT}.
     */
    public record Scenario(String name, String label, Duration zookeeperSessionTimeout, boolean regionReplicaReplication,
            Map<String, String> storeSettings, Optional<Duration> pause) {

        /** A {@code kill -9} run. */
        public static Scenario kill(String name, String label, Duration zookeeperSessionTimeout,
                Map<String, String> storeSettings) {
            return new Scenario(name, label, zookeeperSessionTimeout, false, storeSettings, Optional.empty());
        }

        String fault() {
            return pause.map(length -> "SIGSTOP for " + length.toSeconds() + " s").orElse("kill -9");
        }
    }

    /** The benchmark WAR's operations and the visit counter every answer shows. */
    static final SessionEndpoints BENCHMARK_WEBAPP = new SessionEndpoints("init", "read", "write",
            Pattern.compile("visits=(\\d+)"));
    private static final String TABLE = "bench_failover";
    private static final int REGION_SERVERS = 3;
    private static final int REGIONS = 12;
    private static final double WRITE_SHARE = 0.2;
    private static final int CLIENT_THREADS = 16;
    /** Longer than any store bound: a request still unanswered then counts as hung. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLUSTER_WAIT = Duration.ofMinutes(4);
    private static final int VERIFY_ATTEMPTS = 10;
    private static final Duration VERIFY_PAUSE = Duration.ofSeconds(1);
    /** How long after resuming a paused region server the master may still expire it. */
    private static final Duration ABORT_WAIT = Duration.ofSeconds(15);
    private static final String FAULT = "fault";
    private static final String RESUMED = "resumed";
    private static final String EXPIRED = "expired";
    private static final String REASSIGNED = "reassigned";

    private final Path work;
    private final Path output;
    private final List<Scenario> scenarios;
    private final int sessions;
    private final double requestsPerSecond;
    private final Duration steady;
    private final Optional<String> backendCpus;

    /**
     * @param sessions sessions of the load
     * @param requestsPerSecond the load's rate, whatever the answers do
     * @param steady how long the load runs before the kill, and again after every region is reassigned
     * @param backendCpus the CPUs of every process of the cluster, with --pin-backend-cpus
     */
    public FailoverBenchmark(Path work, Path output, List<Scenario> scenarios, int sessions, double requestsPerSecond,
            Duration steady, Optional<String> backendCpus) {
        this.work = work;
        this.output = output;
        this.scenarios = scenarios;
        this.sessions = sessions;
        this.requestsPerSecond = requestsPerSecond;
        this.steady = steady;
        this.backendCpus = backendCpus;
    }

    /** The store settings of every scenario: the defaults, on a table of its own, pre-split for the cluster. */
    public static Map<String, String> baseSettings(String quorum) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("zookeeperQuorum", quorum);
        settings.put("table", TABLE);
        settings.put("indexTable", TABLE + "_index");
        settings.put("regions", Integer.toString(REGIONS));
        settings.put("writeDurability", "SYNC_WAL");
        return settings;
    }

    public void run(Report report) throws Exception {
        report.heading("5. Failover: a region server killed or paused under HTTP load");
        report.note(String.format(Locale.ROOT, "A cluster of %d region servers (ZooKeeper, master and region servers each a "
                + "JVM on this machine, distributed mode on the local file system), the sessions table pre-split in %d "
                + "regions and balanced; one Tomcat and one Jetty node with the HBase store; %,d sessions under an open "
                + "load of %.0f requests/s (%.0f %% writes, SYNC_WAL), each request of a session on the other node than "
                + "the one before. After %d s, the fault on the region server holding the most session regions (kill -9, "
                + "or SIGSTOP for a while, then SIGCONT); the load goes on until %d s after every region is served again, "
                + "then each session is read back on both nodes (a write acknowledged with 2xx must be there). Times are "
                + "from the fault.", REGION_SERVERS, REGIONS, sessions, requestsPerSecond, WRITE_SHARE * 100,
                steady.toSeconds(), steady.toSeconds()));
        List<List<String>> rows = new ArrayList<>();
        List<String> charts = new ArrayList<>();
        for (Scenario scenario : scenarios) {
            Run run;
            try {
                run = run(scenario);
            } catch (IOException | RuntimeException e) {
                // One run that cannot be set up must not take the others' figures with it.
                report.note("**Run '" + scenario.label() + ", " + scenario.fault() + "' failed**: " + e);
                continue;
            }
            rows.add(run.row());
            charts.add(run.chart());
            if (!run.verification().everyAcknowledgedWriteReadBack() || run.record().writesSeenLost() > 0) {
                report.note(String.format(Locale.ROOT, "**Acknowledged writes were lost in run '%s, %s'** (times from "
                        + "the load's start; the fault at %.1f s): %s; during the load: %s", scenario.label(),
                        scenario.fault(), run.record().secondsFromStart(FAULT), run.verification(),
                        run.record().violations()));
            }
        }
        report.table(List.of("run", "fault", "requests", "failed (by status)", "failed reads / writes", "expired (s)",
                "reassigned (s)", "last failure (s)", "failed answers p50 / max (ms)", "p99 during recovery (ms)",
                "acknowledged writes", "lost: sessions / writes seen", "stale reads", "CPU busy, max load average"), rows);
        report.note("expired: the master counts the region server dead (its ZooKeeper session expired); reassigned: "
                + "every region of the table is open again elsewhere (a paused region server that was not expired keeps "
                + "its regions); last failure: when the last failed request was sent; p99 during recovery: of "
                + "every request sent from the fault until the regions were reassigned or the server resumed; lost: sessions "
                + "whose counter, read back on a node, is below the last value a write was acknowledged with, and writes "
                + "whose answer showed a counter that missed an earlier acknowledged write (both must be 0); "
                + "stale reads: reads during the load that showed an older counter than an acknowledged write; CPU busy: "
                + "the machine's mean over the whole run. Timelines: failover-<run>.tsv and .png; every request: "
                + "work/failover-<run>/requests.tsv.");
        Files.write(output.resolve("failover.charts"), charts);
    }

    private Run run(Scenario scenario) throws Exception {
        Path directory = work.resolve("failover-" + scenario.name());
        try (EmbeddedHBaseCluster cluster = EmbeddedHBaseCluster.builder()
                .dataDirectory(directory.resolve("hbase"))
                .regionServers(REGION_SERVERS)
                .zookeeperSessionTimeout(scenario.zookeeperSessionTimeout())
                .regionReplicaReplication(scenario.regionReplicaReplication())
                .cpuAffinity(backendCpus)
                .build()
                .start()) {
            Map<String, String> settings = baseSettings(cluster.zookeeperQuorum() + ":" + cluster.zookeeperPort());
            settings.putAll(scenario.storeSettings());
            TableName table = TableName.valueOf(TABLE);
            try (ControlledNode tomcat = ControlledNode.start(Candidate.hbase(Container.TOMCAT, "HBaseSessionManager",
                    settings), directory.resolve("tomcat"), directory.resolve("tomcat.log"), false);
                    ControlledNode jetty = ControlledNode.start(Candidate.hbase(Container.JETTY, "HBaseSessionDataStore",
                            settings), directory.resolve("jetty"), directory.resolve("jetty.log"), false)) {
                cluster.awaitAllRegionsAssigned(table, CLUSTER_WAIT);
                cluster.balance(table, CLUSTER_WAIT);
                List<URI> apps = List.of(tomcat.baseUri(), jetty.baseUri());
                VerifiedLoad load = VerifiedLoad.builder(apps, BENCHMARK_WEBAPP).sessions(sessions).clients(CLIENT_THREADS)
                        .requestsPerSecond(requestsPerSecond).writeShare(WRITE_SHARE).requestTimeout(REQUEST_TIMEOUT)
                        .build();
                load.createSessions();
                Map<Integer, Integer> regions = cluster.regionsPerRegionServer(table);
                int victim = regions.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
                // Clients find moved regions through hbase:meta: a fault of its server delays every other recovery.
                boolean victimHostsMeta = cluster.regionServerHosting(TableName.META_TABLE_NAME,
                        HConstants.EMPTY_START_ROW) == victim;

                load.start();
                Thread.sleep(steady.toMillis());
                load.mark(FAULT);
                CompletableFuture<Boolean> recovery = watchRecovery(cluster, victim, table, load,
                        scenario.pause().map(pause -> pause.plus(ABORT_WAIT)).orElse(CLUSTER_WAIT));
                injectFault(scenario, cluster, victim, load);
                boolean crashed = recovery.join();
                Thread.sleep(steady.toMillis());
                boolean victimRuns = cluster.isRegionServerRunning(victim);
                LoadRecord record = load.stop();
                Verification verification = load.verify(VERIFY_ATTEMPTS, VERIFY_PAUSE);
                Path timeline = record.writeTimeline(output.resolve("failover-" + scenario.name() + ".tsv"), FAULT);
                record.writeOutcomes(directory.resolve("requests.tsv"), FAULT);
                return new Run(scenario, victimHostsMeta, crashed, victimRuns, record, verification, timeline);
            }
        }
    }

    /**
     * Marks when the master expires the region server and when all regions are assigned again, while the
     * fault goes on (a paused server may be expired, and its regions moved, before it resumes); completes
     * with false if it is not expired within {@code expiryWait}.
     */
    private static CompletableFuture<Boolean> watchRecovery(EmbeddedHBaseCluster cluster, int victim, TableName table,
            VerifiedLoad load, Duration expiryWait) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                cluster.awaitRegionServerExpired(victim, expiryWait);
            } catch (EmbeddedHBaseException notExpired) {
                return false;
            }
            load.mark(EXPIRED);
            cluster.awaitAllRegionsAssigned(table, CLUSTER_WAIT);
            load.mark(REASSIGNED);
            return true;
        });
    }

    /** Kills the region server, or suspends it for the scenario's pause and resumes it. */
    private static void injectFault(Scenario scenario, EmbeddedHBaseCluster cluster, int victim, VerifiedLoad load)
            throws InterruptedException {
        if (scenario.pause().isEmpty()) {
            cluster.killRegionServer(victim);
            return;
        }
        cluster.suspendRegionServer(victim);
        try {
            Thread.sleep(scenario.pause().get().toMillis());
        } finally {
            cluster.resumeRegionServer(victim);
        }
        load.mark(RESUMED);
    }

    /**
     * {@code victimHostsMeta}: the faulty region server held {@code hbase:meta}; {@code crashed}: the master
     * expired it; {@code victimRuns}: its process runs at the end.
     */
    private record Run(Scenario scenario, boolean victimHostsMeta, boolean crashed, boolean victimRuns, LoadRecord record,
            Verification verification, Path timeline) {

        List<String> row() {
            Predicate<Outcome> failed = outcome -> !outcome.succeeded();
            long fault = record.nanosOf(FAULT);
            long recovered = record.nanosOf(crashed ? REASSIGNED : RESUMED);
            Predicate<Outcome> duringRecovery = outcome -> outcome.startNanos() >= fault && outcome.startNanos() <= recovered;
            String fate = scenario.pause().isEmpty() ? "" : (crashed ? ", expired" : ", not expired")
                    + (victimRuns ? ", serves on" : ", aborted when resumed");
            return Report.cells(scenario.label(), scenario.fault() + fate + (victimHostsMeta ? " (it held hbase:meta)" : ""),
                    Report.count(record.outcomes().size()),
                    Report.count(record.count(failed)) + " " + record.failuresByStatus(),
                    Report.count(record.count(failed.and(outcome -> !outcome.write()))) + " / "
                            + Report.count(record.count(failed.and(Outcome::write))),
                    crashed ? Report.number(record.secondsBetween(FAULT, EXPIRED)) : "not expired",
                    crashed ? Report.number(record.secondsBetween(FAULT, REASSIGNED)) : "none moved",
                    record.lastFailureAfter(FAULT).map(Report::number).orElse("none failed"),
                    Report.number(record.latencyPercentileMillis(failed, 50)) + " / "
                            + Report.number(record.maxLatencyMillis(failed)),
                    Report.number(record.latencyPercentileMillis(duringRecovery, 99)),
                    Report.count(verification.acknowledgedWrites()),
                    Report.count(verification.lost().size() + verification.unreadable().size()) + " / "
                            + Report.count(record.writesSeenLost()),
                    Report.count(record.staleReads()),
                    String.format(Locale.ROOT, "%.0f %%, %.2f", record.meanCpuLoadBetween("start", "stop") * 100,
                            record.maxLoadAverageBetween("start", "stop")));
        }

        /** The gnuplot variables of this run's chart: one line of failover.charts. */
        String chart() {
            Path png = timeline.resolveSibling(timeline.getFileName().toString().replace(".tsv", ".png"));
            StringJoiner marks = new StringJoiner(" ");
            List<String> events = new ArrayList<>(crashed ? List.of(EXPIRED, REASSIGNED) : List.of());
            scenario.pause().ifPresent(pause -> events.add(RESUMED));
            for (String event : events) {
                marks.add(String.format(Locale.ROOT, "%s:%.1f", event, record.secondsBetween(FAULT, event)));
            }
            return String.format(Locale.ROOT, "data='%s'; out='%s'; heading='%s'; fault='%s'; marks='%s'", timeline, png,
                    scenario.label().replace("'", ""), scenario.fault(), marks);
        }
    }
}
