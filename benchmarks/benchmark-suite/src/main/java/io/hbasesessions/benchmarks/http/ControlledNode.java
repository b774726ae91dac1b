package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.BenchmarkBuild;
import io.hbasesessions.benchmarks.node.NodeConsole;
import io.hbasesessions.benchmarks.node.NodeControl;
import io.hbasesessions.testing.NodeProcess;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A candidate's node: its node program started by node-launcher, serving the benchmark WAR at
 * {@code /app}, and the driver's control connection to it ({@link NodeControl}). The node's output is
 * its log.
 */
public final class ControlledNode implements AutoCloseable {

    /** The same for every node, so heap figures compare. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms2g", "-Xmx2g", "-XX:+UseG1GC");
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private final NodeProcess process;
    private final NodeControl control;

    private ControlledNode(NodeProcess process, NodeControl control) {
        this.process = process;
        this.control = control;
    }

    /**
     * Starts the candidate's node with {@code workDirectory} and {@code log} and waits until it serves.
     * With {@code profile}, the node records a JFR profile next to its log, written when it stops.
     */
    public static ControlledNode start(Candidate candidate, Path workDirectory, Path log, boolean profile)
            throws IOException, InterruptedException {
        List<String> jvmOptions = new ArrayList<>(JVM_OPTIONS);
        if (profile) {
            jvmOptions.add(flightRecording(log.resolveSibling(log.getFileName().toString().replace(".log", ".jfr"))));
        }
        NodeProcess process = NodeProcess.builder(candidate.program())
                .war(BenchmarkBuild.benchmarkWar())
                .contextPath("/app")
                .sessions(candidate.sessions())
                .storeSettings(candidate.storeSettings())
                .arguments(candidate.arguments().toArray(String[]::new))
                .route(candidate.route().orElse(null))
                .workDirectory(workDirectory)
                .log(log)
                .jvmOptions(jvmOptions)
                .start();
        try {
            process.awaitReady(START_TIMEOUT);
            return new ControlledNode(process, NodeControl.connect(process.awaitLine(NodeConsole.CONTROL + " ", START_TIMEOUT)));
        } catch (IOException | RuntimeException | InterruptedException e) {
            process.stop();
            throw e;
        }
    }

    /** The JVM option that records a JFR profile (sampling every 10-20 ms) into {@code file} when the JVM exits. */
    public static String flightRecording(Path file) {
        return "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + file;
    }

    /** The WAR's root on 127.0.0.1, the address the node binds (wrk would try {@code localhost}'s IPv6 first). */
    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + process.port() + "/app/");
    }

    public long pid() {
        return process.pid();
    }

    /** The node's counters: {@code activeSessions}, and for HBase stores {@code sessionWrites}, {@code loads}... */
    public Map<String, Long> counters() throws IOException {
        return control.counters();
    }

    /** Heap in use after full collections. */
    public long heapUsedBytes() throws IOException {
        return control.heapUsedBytes();
    }

    /** Tells the node to stop, then waits until it is gone. */
    @Override
    public void close() throws IOException {
        try {
            control.close();
        } finally {
            process.stop();
        }
    }
}
