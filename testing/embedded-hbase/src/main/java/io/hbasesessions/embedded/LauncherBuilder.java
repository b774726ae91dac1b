package io.hbasesessions.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The settings the standalone server's and the cluster's builders share, checked at once with a
 * message that names the setting; only {@link #dataDirectory(Path)} is required.
 */
abstract class LauncherBuilder<B extends LauncherBuilder<B>> {

    private static final int MINIMUM_HEAP_MEGABYTES = 128;
    /** What {@code taskset -c} takes: CPU numbers and ranges, comma-separated ({@code 0}, {@code 0-1,4}). */
    private static final String CPU_LIST = "\\d+(-\\d+)?(,\\d+(-\\d+)?)*";

    Path dataDirectory;
    int zookeeperPort;
    Path javaHome = Path.of(System.getProperty("java.home"));
    Duration startTimeout;
    Duration stopTimeout = Duration.ofSeconds(30);
    List<String> jvmOptions = ServerCommandLine.QUICK_START_OPTIONS;
    Optional<String> cpuAffinity = Optional.empty();
    OptionalLong owner = OptionalLong.empty();

    LauncherBuilder(Duration defaultStartTimeout) {
        startTimeout = defaultStartTimeout;
    }

    abstract B self();

    /** Where HBase keeps its tables, ZooKeeper state, configuration and logs; kept between runs. Required. */
    public B dataDirectory(Path dataDirectory) {
        this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
        return self();
    }

    /** The ZooKeeper client port; 0 (the default) picks a free port at the first start, reused by restarts. */
    public B zookeeperPort(int zookeeperPort) {
        if (zookeeperPort < 0 || zookeeperPort > 65535) {
            throw new EmbeddedHBaseException("zookeeperPort must be 0 (pick a free port) or 1..65535, not " + zookeeperPort);
        }
        this.zookeeperPort = zookeeperPort;
        return self();
    }

    /** The JDK that runs the servers (17 to 21); default: the one running this JVM. */
    public B javaHome(Path javaHome) {
        this.javaHome = Objects.requireNonNull(javaHome, "javaHome");
        return self();
    }

    /** How long {@code start()} waits until HBase serves a table operation. */
    public B startTimeout(Duration startTimeout) {
        if (startTimeout.isNegative() || startTimeout.isZero()) {
            throw new EmbeddedHBaseException("startTimeout must be positive, not " + startTimeout);
        }
        this.startTimeout = startTimeout;
        return self();
    }

    /** How long {@code stop()} waits for a clean stop before killing; default 30 s. */
    public B stopTimeout(Duration stopTimeout) {
        if (stopTimeout.isNegative()) {
            throw new EmbeddedHBaseException("stopTimeout must not be negative, not " + stopTimeout);
        }
        this.stopTimeout = stopTimeout;
        return self();
    }

    /**
     * JVM options of every server process besides heap and module options; default {@code -XX:+UseSerialGC
     * -XX:TieredStopAtLevel=1}, which starts faster but answers 1.5-2x slower. Benchmarks pass an
     * empty list (the JDK's defaults) or their own tuning.
     */
    public B jvmOptions(List<String> jvmOptions) {
        this.jvmOptions = List.copyOf(jvmOptions);
        return self();
    }

    /**
     * The CPUs every server process runs on, as a {@code taskset -c} list ({@code 0}, {@code 2-3}): the
     * command runs under {@code taskset}, which needs util-linux. Benchmarks use it to keep HBase off the
     * cores of the nodes that call it. Default: empty, wherever the operating system schedules them.
     */
    public B cpuAffinity(Optional<String> cpuList) {
        if (cpuList.isPresent() && !cpuList.get().matches(CPU_LIST)) {
            throw new EmbeddedHBaseException("cpuAffinity takes a taskset CPU list such as 0 or 0-1,4, not " + cpuList.get());
        }
        this.cpuAffinity = cpuList;
        return self();
    }

    /**
     * The process whose end ends the servers, instead of this JVM: the Maven process, for the one HBase of a
     * build (see {@link BuildHBase}). No shutdown hook of this JVM stops them then.
     */
    B owner(long pid) {
        this.owner = OptionalLong.of(pid);
        return self();
    }

    void requireDataDirectory() {
        if (dataDirectory == null) {
            throw new EmbeddedHBaseException("No data directory: call dataDirectory(Path) on the builder");
        }
    }

    static int checkHeapMegabytes(String name, int heapMegabytes) {
        if (heapMegabytes < MINIMUM_HEAP_MEGABYTES) {
            throw new EmbeddedHBaseException(name + " must be at least " + MINIMUM_HEAP_MEGABYTES + ", not " + heapMegabytes);
        }
        return heapMegabytes;
    }
}
