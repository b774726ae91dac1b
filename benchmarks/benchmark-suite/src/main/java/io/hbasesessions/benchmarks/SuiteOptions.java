package io.hbasesessions.benchmarks;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The suite's command line. {@code --redis} and {@code --jdbc-url} name the peers that run.sh started;
 * a peer not given is left out of the HTTP benchmark, and the report says so. {@code --profile} records
 * JFR profiles of the HBase server and of every HTTP node into the work directory; {@code --parts}
 * runs only some parts (to look into one), the published run runs them all; {@code --candidates} runs only
 * some rows of the HTTP part (by node name, such as {@code tomcat-hbase-sticky}; each container's ceiling always
 * runs, since every ratio is to it). {@code --pin-backend-cpus}
 * runs HBase on the CPUs listed and everything else on the others ({@link CpuPinning}).
 */
public record SuiteOptions(Sizes sizes, Path output, Optional<String> redis, Optional<String> jdbcUrl,
        String loadGenerator, Optional<String> peerVersions, boolean profile, Set<String> parts, Optional<String> pinBackendCpus,
        Optional<Set<String>> candidates) {

    /** The parts, in the order they run. */
    public static final List<String> ALL_PARTS = List.of("codec", "store", "rewrites", "shiro", "http", "hot",
            "propagation", "scale", "heap", "sizing", "server", "failover");

    static final String USAGE = "usage: BenchmarkSuite --quick|--full|--smoke [--output DIR] [--redis HOST:PORT] "
            + "[--jdbc-url jdbc:postgresql://...] [--load-generator auto|wrk|java] [--peer-versions TEXT] [--profile] "
            + "[--parts codec,store,rewrites,shiro,http,hot,propagation,scale,heap,sizing,server,failover] "
            + "[--pin-backend-cpus LIST] [--candidates tomcat-hbase,tomcat-hbase-sticky,...]";

    public static SuiteOptions parse(String... args) {
        Sizes sizes = null;
        Path output = Path.of("benchmarks", "target", "results");
        String redis = null;
        String jdbcUrl = null;
        String loadGenerator = "auto";
        String peerVersions = null;
        boolean profile = false;
        Set<String> parts = new LinkedHashSet<>(ALL_PARTS);
        String pinBackendCpus = null;
        Set<String> candidates = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> sizes = Sizes.QUICK;
                case "--full" -> sizes = Sizes.FULL;
                case "--smoke" -> sizes = Sizes.SMOKE;
                case "--output" -> output = Path.of(value(args, ++i));
                case "--redis" -> redis = value(args, ++i);
                case "--jdbc-url" -> jdbcUrl = value(args, ++i);
                case "--load-generator" -> loadGenerator = value(args, ++i);
                case "--peer-versions" -> peerVersions = value(args, ++i);
                case "--profile" -> profile = true;
                case "--parts" -> parts = new LinkedHashSet<>(List.of(value(args, ++i).split(",")));
                case "--pin-backend-cpus" -> pinBackendCpus = value(args, ++i);
                case "--candidates" -> candidates = new LinkedHashSet<>(List.of(value(args, ++i).split(",")));
                default -> throw new IllegalArgumentException("Unknown option " + args[i] + "\n" + USAGE);
            }
        }
        if (sizes == null) {
            throw new IllegalArgumentException("Choose --quick, --full or --smoke\n" + USAGE);
        }
        if (!loadGenerator.matches("auto|wrk|java")) {
            throw new IllegalArgumentException("--load-generator must be auto, wrk or java\n" + USAGE);
        }
        if (!ALL_PARTS.containsAll(parts)) {
            throw new IllegalArgumentException("--parts takes some of " + ALL_PARTS + ", not " + parts + "\n" + USAGE);
        }
        if (pinBackendCpus != null) {
            try {
                CpuPinning.parse(pinBackendCpus);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--pin-backend-cpus: " + e.getMessage() + "\n" + USAGE, e);
            }
        }
        return new SuiteOptions(sizes, output, Optional.ofNullable(redis), Optional.ofNullable(jdbcUrl), loadGenerator,
                Optional.ofNullable(peerVersions), profile, parts, Optional.ofNullable(pinBackendCpus),
                Optional.ofNullable(candidates));
    }

    private static String value(String[] args, int index) {
        if (index >= args.length) {
            throw new IllegalArgumentException(args[index - 1] + " needs a value\n" + USAGE);
        }
        return args[index];
    }
}
