package io.hbasesessions.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import io.hbasesessions.benchmarks.codec.CodecReport;
import io.hbasesessions.benchmarks.failover.FailoverBenchmark;
import io.hbasesessions.benchmarks.failover.FailoverBenchmark.Scenario;
import io.hbasesessions.benchmarks.http.Candidate;
import io.hbasesessions.benchmarks.http.Candidate.Container;
import io.hbasesessions.benchmarks.http.ControlledNode;
import io.hbasesessions.benchmarks.http.HeapBenchmark;
import io.hbasesessions.benchmarks.http.HotSessionBenchmark;
import io.hbasesessions.benchmarks.http.HttpBenchmark;
import io.hbasesessions.benchmarks.http.JavaLoadGenerator;
import io.hbasesessions.benchmarks.http.LoadGenerator;
import io.hbasesessions.benchmarks.http.PropagationBenchmark;
import io.hbasesessions.benchmarks.http.ServerSettingsBenchmark;
import io.hbasesessions.benchmarks.http.WrkLoadGenerator;
import io.hbasesessions.benchmarks.scale.ScaleBenchmark;
import io.hbasesessions.benchmarks.shiro.ShiroBenchmark;
import io.hbasesessions.benchmarks.sizing.SizingBenchmark;
import io.hbasesessions.benchmarks.store.RequestCostReport;
import io.hbasesessions.benchmarks.store.RewriteCostBenchmark;
import io.hbasesessions.benchmarks.store.Sessions;
import io.hbasesessions.benchmarks.store.StoreBenchmark;
import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.Setting;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs every part in one JVM, one after the other, on one embedded HBase (started with the JDK's
 * default JIT and collector, not the quick-start options tests use), and writes {@code results.md}.
 * Containers run in child JVMs; peers (Redis, PostgreSQL, wrk) are whatever run.sh started and named.
 */
public final class BenchmarkSuite {

    /**
     * Region server settings sized for a small machine, which part {@code server} measures against HBase's
     * defaults: 8 RPC handlers instead of 30 (a session workload's calls are short, and a write holds its
     * handler only through the WAL sync) and one netty event loop thread per core instead of two. They
     * brought nothing measurable (docs/operations.md), so every other part runs HBase with its defaults.
     */
    static final Map<String, String> SMALL_MACHINE_SERVER_SETTINGS = Map.of(
            "hbase.regionserver.handler.count", "8",
            "hbase.netty.worker.count", Integer.toString(Runtime.getRuntime().availableProcessors()));

    /** A stickyCopiesMaxBytes that holds the full run's 100,000 heap sessions (about 2 KB each by the store's weight). */
    private static final long STICKY_COPIES_FOR_EVERY_SESSION = 512L * 1024 * 1024;
    /** The routes of the sticky setups' nodes: each node of a sticky deployment has one of its own. */
    private static final String ROUTE = "node1";

    private final SuiteOptions options;

    public BenchmarkSuite(SuiteOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        SuiteOptions options;
        try {
            options = SuiteOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        new BenchmarkSuite(options).run();
    }

    /** Runs everything and returns the report, also written to {@code <output>/results.md}. */
    public Report run() throws Exception {
        Sizes sizes = options.sizes();
        Path output = options.output().toAbsolutePath();
        Path work = output.resolve("work");
        deleteRecursively(work);
        Report report = new Report();
        Instant start = Instant.now();
        Laps laps = new Laps(start);
        Optional<CpuPinning> pinning = options.pinBackendCpus().map(CpuPinning::pinThisJvm);
        Optional<String> backendCpus = pinning.map(CpuPinning::backendCpuList);
        describeMachine(report, pinning);

        if (options.parts().contains("codec")) {
            CodecReport.run(report, sizes.jmhForks, sizes.jmhIterations, sizes.jmhIterationTime);
            CodecReport.runStateProtection(report, sizes.jmhForks, sizes.jmhIterations, sizes.jmhIterationTime);
            laps.end("codec");
        }
        try (EmbeddedHBase hbase = hbase(work.resolve("hbase"), Map.of(), backendCpus, options.profile()
                ? List.of(ControlledNode.flightRecording(work.resolve("hbase-server.jfr"))) : List.of())) {
            String quorum = hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
            laps.end("HBase start");
            if (options.parts().contains("store")) {
                StoreBenchmark store = new StoreBenchmark(Sessions.storeSettings(quorum, "bench_store"), sizes.storeWarmup,
                        sizes.storeMeasured, sizes.storeSessions);
                store.run(report);
                store.runStateProtection(report, stateKeyFile(work));
                RequestCostReport.run(report, quorum, sizes.jmhForks, sizes.jmhIterations, sizes.jmhIterationTime);
                laps.end("store");
            }
            if (options.parts().contains("rewrites")) {
                new RewriteCostBenchmark(Sessions.storeSettings(quorum, "bench_rewrites"), hbase.clientConfiguration(), hbase::pid)
                        .run(report, sizes.rewriteCounts, sizes.rewriteReads, sizes.rewriteWritesPerRow);
                laps.end("rewrites");
            }
            if (options.parts().contains("shiro")) {
                new ShiroBenchmark(Sessions.storeSettings(quorum, "bench_shiro")).run(report, sizes.shiroSessions);
                laps.end("shiro");
            }
            if (options.parts().contains("http")) {
                List<String> notRun = new ArrayList<>();
                new HttpBenchmark(candidates(quorum, work, notRun), notRun, loadGenerator(work), hbase::pid, work.resolve("http"),
                        output.resolve("http.tsv"), options.profile(), sizes.httpSessions)
                        .run(report, sizes.httpWarmup, sizes.httpMeasured);
                laps.end("http");
            }
            if (options.parts().contains("hot")) {
                new HotSessionBenchmark(tomcatHBase(quorum), jettyHBase(quorum), loadGenerator(work), hbase::pid,
                        work.resolve("hot"), options.profile()).run(report, sizes.httpWarmup, sizes.httpMeasured);
                laps.end("hot");
            }
            if (options.parts().contains("propagation")) {
                List<String> notRun = new ArrayList<>();
                new PropagationBenchmark(propagationSetups(quorum, work, notRun), notRun, work.resolve("propagation"),
                        sizes.propagationTrials, sizes.propagationCap).run(report);
                laps.end("propagation");
            }
            // After the HTTP part, so that the HTTP figures are not taken beside a million-row table.
            if (options.parts().contains("scale")) {
                new ScaleBenchmark(Sessions.storeSettings(quorum, "bench_scale"), hbase.clientConfiguration(),
                        hbase.rootDirectory()).run(report, sizes.scaleSessions, sizes.scaleLoads);
                laps.end("scale");
            }
            if (options.parts().contains("heap")) {
                Candidate inMemory = tomcatInMemory();
                Candidate hbaseStore = tomcatHBase(quorum);
                Candidate sticky = sticky(Container.TOMCAT, "HBaseSessionManager", quorum);
                List<Candidate> measured = new ArrayList<>(List.of(inMemory, hbaseStore, sticky));
                if (sizes == Sizes.FULL) {
                    // The default budget holds fewer copies than the full run's sessions: this one holds every one.
                    measured.add(stickyHoldingEverySession(quorum));
                }
                // The smoke run measures the sticky node only: the others' paths run in part http.
                new HeapBenchmark(everyVariant() ? measured : List.of(sticky),
                        everyVariant() ? List.of() : List.of(inMemory, hbaseStore), work.resolve("heap"))
                        .run(report, sizes.heapSessions);
                laps.end("heap");
            }
            if (options.parts().contains("sizing")) {
                new SizingBenchmark(settings -> settings.set(Setting.ZOOKEEPER_QUORUM, quorum), hbase.clientConfiguration(),
                        hbase.rootDirectory(), hbase::pid, output).run(report, SizingBenchmark.Plan.of(sizes));
                laps.end("sizing");
            }
            // The smoke run measures HBase's defaults on this HBase, which has them, instead of starting two more.
            if (options.parts().contains("server") && !everyVariant()) {
                serverSettings(work, backendCpus).runDefaultsOn(hbase, report, SMALL_MACHINE_SERVER_SETTINGS,
                        sizes.httpWarmup, sizes.httpMeasured);
                laps.end("server");
            }
        }
        laps.end("HBase stop");
        if (options.parts().contains("server") && everyVariant()) {
            serverSettings(work, backendCpus)
                    .run(report, SMALL_MACHINE_SERVER_SETTINGS, sizes.httpWarmup, sizes.httpMeasured);
            laps.end("server");
        }
        // On a cluster of its own, after the standalone HBase stopped.
        if (options.parts().contains("failover")) {
            new FailoverBenchmark(work, output, failoverScenarios(sizes), sizes.failoverSessions,
                    sizes.failoverRequestsPerSecond, sizes.failoverSteady, backendCpus).run(report);
            laps.end("failover");
        }
        if (options.profile()) {
            // After HBase stopped: its recording is written when its JVM exits.
            ProfileSummary.summarize(report, work);
        }
        report.note(String.format(Locale.ROOT, "Run took %d s (%s); load average at the end: %.2f.",
                Duration.between(start, Instant.now()).toSeconds(), laps, loadAverage()));
        report.writeTo(output.resolve("results.md"));
        return report;
    }

    /**
     * A fresh standalone HBase with the JDK's default JIT and collector and {@code settings} on top of the embedded
     * ones, on {@code cpus} when the run pins.
     */
    private EmbeddedHBase hbase(Path data, Map<String, String> settings, Optional<String> cpus,
            List<String> jvmOptions) {
        return EmbeddedHBase.builder()
                .dataDirectory(data)
                .heapMegabytes(options.sizes() == Sizes.FULL ? 4096 : 1024)
                .jvmOptions(jvmOptions)
                .serverSettings(settings)
                .cpuAffinity(cpus)
                .build()
                .start();
    }

    /** Part server: each settings' rows on a fresh standalone HBase started with them. */
    private ServerSettingsBenchmark serverSettings(Path work, Optional<String> backendCpus) {
        return new ServerSettingsBenchmark(settings -> hbase(work.resolve("hbase-" + (settings.isEmpty() ? "defaults"
                : "tuned")), settings, backendCpus, List.of()), BenchmarkSuite::tomcatHBase, loadGenerator(work),
                work.resolve("server"), options.sizes().httpSessions);
    }

    /**
     * Whether each part runs every variant it compares; the build's smoke run keeps one where each variant runs the
     * same code (its section must not rot), and its rows say which it left out.
     */
    private boolean everyVariant() {
        return options.sizes() != Sizes.SMOKE;
    }

    /** A {@code stateKeyFile} of one random key, as {@code openssl rand -base64 32} makes one. */
    private static Path stateKeyFile(Path work) throws IOException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Files.createDirectories(work);
        return Files.writeString(work.resolve("state-keys"), Base64.getEncoder().encodeToString(key) + "\n");
    }

    /**
     * HBase's default ZooKeeper session timeout, then tuned down, with region replicas and timeline reads,
     * and a shorter store bound; what tuning down costs: a pause longer than the timeout becomes a crash.
     * The smoke run takes one short run.
     */
    private static List<Scenario> failoverScenarios(Sizes sizes) {
        Duration hbaseDefault = Duration.ofSeconds(90);
        Duration tuned = Duration.ofSeconds(10);
        Optional<Duration> pause = Optional.of(Duration.ofSeconds(15));
        Scenario killTuned = Scenario.kill("zk10s", "ZooKeeper session timeout 10 s", tuned, Map.of());
        Scenario pauseTuned = new Scenario("zk10s-pause", "ZooKeeper session timeout 10 s", tuned, false, Map.of(), pause);
        Scenario killReplicated = new Scenario("zk10s-replicas", "10 s, regionReplicas 2, timelineReads", tuned, true,
                Map.of("regionReplicas", "2", "timelineReads", "true"), Optional.empty());
        return switch (sizes) {
            case SMOKE -> List.of(Scenario.kill("zk5s", "ZooKeeper session timeout 5 s", Duration.ofSeconds(5), Map.of()));
            case QUICK -> List.of(killTuned, killReplicated, pauseTuned);
            case FULL -> List.of(
                    Scenario.kill("zk90s", "ZooKeeper session timeout 90 s (the HBase default)", hbaseDefault, Map.of()),
                    killTuned,
                    killReplicated,
                    Scenario.kill("zk10s-op1s", "10 s, operationTimeoutMillis 1000", tuned,
                            Map.of("operationTimeoutMillis", "1000")),
                    pauseTuned,
                    new Scenario("zk90s-pause", "ZooKeeper session timeout 90 s (the HBase default)", hbaseDefault, false,
                            Map.of(), pause));
        };
    }

    private List<Candidate> candidates(String quorum, Path work, List<String> notRun) throws IOException {
        List<Candidate> candidates = new ArrayList<>(List.of(tomcatInMemory(), tomcatHBase(quorum),
                sticky(Container.TOMCAT, "HBaseSessionManager", quorum)));
        if (everyVariant()) {
            candidates.add(callsAlone(Container.TOMCAT, "HBaseSessionManager", quorum));
            candidates.add(expiryEvents(Container.TOMCAT, "HBaseSessionManager", quorum));
        }
        if (options.redis().isPresent()) {
            Path config = redissonConfig(work);
            candidates.add(Candidate.peer(Container.TOMCAT, "redisson", "Redisson " + BenchmarkBuild.version("redisson")
                    + " (default mode), Redis", Candidate.Backend.REDIS, List.of("--redisson-config", config.toString())));
            candidates.add(redissonInMemory(config));
        } else {
            notRun.add("Redisson, default mode and readMode=MEMORY (no --redis given)");
        }
        options.jdbcUrl().ifPresentOrElse(
                url -> candidates.add(Candidate.peer(Container.TOMCAT, "persistent",
                        "PersistentManager + DataSourceStore, PostgreSQL", Candidate.Backend.POSTGRESQL,
                        List.of("--jdbc-url", url))),
                () -> notRun.add("PersistentManager + DataSourceStore (no --jdbc-url given)"));
        candidates.addAll(springSessions(quorum, notRun));
        candidates.add(Candidate.inMemory(Container.JETTY, "in memory (Jetty's default)"));
        candidates.add(jettyHBase(quorum));
        candidates.add(sticky(Container.JETTY, "HBaseSessionDataStore", quorum));
        if (everyVariant()) {
            candidates.add(callsAlone(Container.JETTY, "HBaseSessionDataStore", quorum));
        }
        candidates.add(expiryEvents(Container.JETTY, "HBaseSessionDataStore", quorum));
        options.jdbcUrl().ifPresentOrElse(
                url -> candidates.addAll(List.of(jettyJdbc(url, "jdbc", 60), jettyJdbc(url, "jdbc-save0", 0),
                        jettyJdbcNeverEvict(url))),
                () -> notRun.add("the JDBC store, savePeriodSec 60 and 0, and behind a cache that never evicts "
                        + "(no --jdbc-url given)"));
        if (!everyVariant()) {
            notRun.add("coalesceCalls=false, and Tomcat's expiryEvents=true (the smoke run; Jetty's shows what it costs)");
        }
        return options.candidates().map(chosen -> chosen(candidates, chosen, notRun)).orElse(candidates);
    }

    /**
     * Issue #32: Spring Session's filter on Tomcat, in front of our indexed repository and of the indexed repositories
     * of Spring Session's own JDBC and Redis modules, each set up as its configuration annotation sets it up.
     */
    private List<Candidate> springSessions(String quorum, List<String> notRun) {
        String version = BenchmarkBuild.version("spring-session");
        List<Candidate> springSessions = new ArrayList<>(List.of(Candidate.springSession(Container.TOMCAT,
                HttpBenchmark.SPRING_SESSION_HBASE_KEY, "Spring Session " + version + " + HBase "
                        + "(HBaseIndexedSessionRepository)", Candidate.Backend.HBASE, hbaseSettings(quorum),
                List.of("--spring-session-hbase"))));
        options.jdbcUrl().ifPresentOrElse(url -> springSessions.add(Candidate.springSession(Container.TOMCAT,
                HttpBenchmark.SPRING_SESSION_JDBC_KEY, "Spring Session JDBC " + version + " (PostgreSQL, "
                        + "JdbcIndexedSessionRepository + HikariCP)", Candidate.Backend.POSTGRESQL, Map.of(),
                List.of("--spring-session-jdbc-url", url))),
                () -> notRun.add("Spring Session JDBC (no --jdbc-url given)"));
        options.redis().ifPresentOrElse(redis -> springSessions.add(Candidate.springSession(Container.TOMCAT,
                HttpBenchmark.SPRING_SESSION_REDIS_KEY, "Spring Session Redis " + version + " (indexed: "
                        + "RedisIndexedSessionRepository, Lettuce " + BenchmarkBuild.version("lettuce") + ")",
                Candidate.Backend.REDIS, Map.of(), List.of("--spring-session-redis", redis))),
                () -> notRun.add("Spring Session Redis (no --redis given)"));
        return springSessions;
    }

    /** The candidates named in {@code --candidates}, and the ceiling of each of their containers. */
    private static List<Candidate> chosen(List<Candidate> candidates, Set<String> names, List<String> notRun) {
        Set<String> known = candidates.stream().map(Candidate::name).collect(Collectors.toCollection(LinkedHashSet::new));
        if (!known.containsAll(names)) {
            throw new IllegalArgumentException("--candidates takes some of " + known + ", not " + names);
        }
        Set<Container> containers = candidates.stream().filter(candidate -> names.contains(candidate.name()))
                .map(Candidate::container).collect(Collectors.toSet());
        List<Candidate> chosen = candidates.stream().filter(candidate -> names.contains(candidate.name())
                || candidate.baseline() && containers.contains(candidate.container())).toList();
        notRun.add("every row but " + chosen.stream().map(Candidate::name).toList() + " (--candidates)");
        return chosen;
    }

    /** Jetty's JDBC store writes an unchanged session again after {@code savePeriodSec}; Jetty's default, 0, on every request. */
    private static Candidate jettyJdbc(String url, String storeKey, int savePeriodSec) {
        return Candidate.peer(Container.JETTY, storeKey, "JDBCSessionDataStore + HikariCP, PostgreSQL (savePeriodSec="
                + savePeriodSec + ")", Candidate.Backend.POSTGRESQL, List.of("--jdbc-url", url, "--jdbc-save-period-sec", Integer.toString(savePeriodSec)));
    }

    /**
     * Jetty's setup for sticky load balancing over its JDBC store: a cache that keeps every session until it ends, so
     * that a node reads the database only for a session it does not hold; savePeriodSec as the main JDBC row's.
     */
    private static Candidate jettyJdbcNeverEvict(String url) {
        return Candidate.peer(Container.JETTY, HttpBenchmark.JDBC_NEVER_EVICT_KEY, "JDBCSessionDataStore + HikariCP, "
                + "PostgreSQL, DefaultSessionCache NEVER_EVICT (savePeriodSec=60)", Candidate.Backend.POSTGRESQL,
                List.of("--jdbc-url", url, "--jdbc-save-period-sec", "60", "--jdbc-session-cache", "NEVER_EVICT"))
                .onRoute(ROUTE);
    }

    private Path redissonConfig(Path work) throws IOException {
        Path config = work.resolve("redisson.yaml");
        Files.createDirectories(work);
        return Files.writeString(config, "singleServerConfig:\n  address: \"redis://" + options.redis().orElseThrow()
                + "\"\n");
    }

    /** Redisson's setup for sticky load balancing: each node's sessions in its memory, kept current over pub/sub. */
    private static Candidate redissonInMemory(Path config) {
        return Candidate.peer(Container.TOMCAT, HttpBenchmark.REDISSON_MEMORY_KEY, "Redisson "
                + BenchmarkBuild.version("redisson") + " (readMode=MEMORY), Redis", Candidate.Backend.REDIS,
                List.of("--redisson-config", config.toString(), "--redisson-read-mode", "MEMORY")).onRoute(ROUTE);
    }

    /** The HBase store with {@code stickySessions} (its other settings at their defaults) on a node with a route. */
    private static Candidate sticky(Container container, String label, String quorum) {
        return Candidate.hbase(container, HttpBenchmark.STICKY_KEY, label + ", stickySessions=true",
                stickySettings(quorum)).onRoute(ROUTE);
    }

    /** The heap part's sticky Tomcat node with a copy budget that holds every session of the full run. */
    private static Candidate stickyHoldingEverySession(String quorum) {
        Map<String, String> settings = stickySettings(quorum);
        settings.put("stickyCopiesMaxBytes", Long.toString(STICKY_COPIES_FOR_EVERY_SESSION));
        return Candidate.hbase(Container.TOMCAT, HttpBenchmark.STICKY_KEY + "-every-copy", "HBaseSessionManager, "
                + "stickySessions=true, stickyCopiesMaxBytes=" + STICKY_COPIES_FOR_EVERY_SESSION + " (" + STICKY_COPIES_FOR_EVERY_SESSION / (1024 * 1024) + " MiB)", settings)
                .onRoute(ROUTE);
    }

    /** The main HBase rows' settings, with {@code stickySessions} and a changes table of the benchmark's own. */
    private static Map<String, String> stickySettings(String quorum) {
        Map<String, String> settings = new HashMap<>(hbaseSettings(quorum));
        settings.put("stickySessions", "true");
        settings.put("changesTable", "bench_http_changes");
        return settings;
    }

    /**
     * Part propagation: the setups that keep copies of sessions in a node's memory, ours on both containers and the
     * peers' (each on two nodes; the smoke run takes Tomcat's HBase store only).
     */
    private List<PropagationBenchmark.Setup> propagationSetups(String quorum, Path work, List<String> notRun)
            throws IOException {
        Optional<Duration> ours = Optional.of(Duration.ofMillis(Setting.STICKY_STALENESS_MILLIS.defaultValue().orElseThrow()));
        List<PropagationBenchmark.Setup> setups = new ArrayList<>(List.of(
                new PropagationBenchmark.Setup(sticky(Container.TOMCAT, "HBaseSessionManager", quorum), ours)));
        if (!everyVariant()) {
            notRun.add("Jetty's HBase store and the peers' setups (the smoke run takes one setup)");
            return setups;
        }
        setups.add(new PropagationBenchmark.Setup(sticky(Container.JETTY, "HBaseSessionDataStore", quorum), ours));
        if (options.redis().isPresent()) {
            setups.add(new PropagationBenchmark.Setup(redissonInMemory(redissonConfig(work)), Optional.empty()));
        } else {
            notRun.add("Redisson readMode=MEMORY (no --redis given)");
        }
        options.jdbcUrl().ifPresentOrElse(
                url -> setups.add(new PropagationBenchmark.Setup(jettyJdbcNeverEvict(url), Optional.empty())),
                () -> notRun.add("Jetty's JDBC store behind a cache that never evicts (no --jdbc-url given)"));
        return setups;
    }

    private static Candidate tomcatInMemory() {
        return Candidate.inMemory(Container.TOMCAT, "StandardManager (in memory)");
    }

    private static Candidate tomcatHBase(String quorum) {
        return Candidate.hbase(Container.TOMCAT, "HBaseSessionManager", hbaseSettings(quorum));
    }

    private static Candidate jettyHBase(String quorum) {
        return Candidate.hbase(Container.JETTY, "HBaseSessionDataStore", hbaseSettings(quorum));
    }

    /** The HBase store as it was before its calls were coalesced: what coalescing changes, measured in the same run. */
    private static Candidate callsAlone(Container container, String label, String quorum) {
        Map<String, String> settings = new HashMap<>(hbaseSettings(quorum));
        settings.put("coalesceCalls", "false");
        return Candidate.hbase(container, "hbase-alone", label + ", coalesceCalls=false", settings);
    }

    /** The HBase store with idle-expiry events: what its expiry index costs, measured in the same run. */
    private static Candidate expiryEvents(Container container, String label, String quorum) {
        Map<String, String> settings = new HashMap<>(hbaseSettings(quorum));
        settings.put("expiryEvents", "true");
        settings.put("expiryTable", "bench_http_expiry");
        return Candidate.hbase(container, HttpBenchmark.EXPIRY_EVENTS_KEY, label + ", expiryEvents=true", settings);
    }

    /** Both containers' HBase stores use the defaults, on one table. */
    private static Map<String, String> hbaseSettings(String quorum) {
        return Map.of("zookeeperQuorum", quorum, "table", "bench_http", "indexTable", "bench_http_index");
    }

    private LoadGenerator loadGenerator(Path work) {
        boolean wrk = switch (options.loadGenerator()) {
            case "wrk" -> true;
            case "java" -> false;
            default -> WrkLoadGenerator.isInstalled();
        };
        return wrk ? new WrkLoadGenerator(work.resolve("wrk")) : new JavaLoadGenerator();
    }

    private void describeMachine(Report report, Optional<CpuPinning> pinning) {
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        report.heading("Machine and versions");
        report.table(List.of("what", "value"), List.of(
                Report.cells("mode", options.sizes().name().toLowerCase(Locale.ROOT)),
                Report.cells("cores", pinning.map(CpuPinning::cpuCount).orElse(Runtime.getRuntime().availableProcessors())),
                Report.cells("CPUs", pinning.map(CpuPinning::toString).orElse("shared")),
                Report.cells("memory", Report.number(os.getTotalMemorySize() / (1024.0 * 1024 * 1024)) + " GiB"),
                Report.cells("load average at the start", String.format(Locale.ROOT, "%.2f", loadAverage())),
                Report.cells("OS", System.getProperty("os.name") + " " + System.getProperty("os.version")),
                Report.cells("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")),
                Report.cells("HBase (standalone, one JVM, local file system)", BenchmarkBuild.version("hbase")),
                Report.cells("Tomcat / Jetty (embedded)", BenchmarkBuild.version("tomcat") + " / "
                        + BenchmarkBuild.version("jetty") + " ee10"),
                Report.cells("Kryo / JMH", BenchmarkBuild.version("kryo") + " / " + BenchmarkBuild.version("jmh")),
                Report.cells("Redisson / HikariCP / PostgreSQL JDBC", BenchmarkBuild.version("redisson") + " / "
                        + BenchmarkBuild.version("hikaricp") + " / " + BenchmarkBuild.version("postgresql")),
                Report.cells("peers", options.peerVersions().orElse("none given"))));
        report.note("Everything runs on this one machine over loopback: HBase, the container node and the load "
                + "generator " + pinning.map(cpus -> "run on CPUs of their own (" + cpus
                        + "; Redis and PostgreSQL with HBase, when run.sh started them)").orElse("share the cores")
                + ", so figures are comparable within this run, not across machines.");
    }

    /** How long each part took, from the end of the one before: where a run's time goes. */
    private static final class Laps {

        private final List<String> laps = new ArrayList<>();
        private Instant lastEnd;

        Laps(Instant start) {
            lastEnd = start;
        }

        void end(String part) {
            Instant now = Instant.now();
            laps.add(part + " " + Duration.between(lastEnd, now).toSeconds() + " s");
            lastEnd = now;
        }

        @Override
        public String toString() {
            return String.join(", ", laps);
        }
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot clear " + directory, e);
        }
    }
}
