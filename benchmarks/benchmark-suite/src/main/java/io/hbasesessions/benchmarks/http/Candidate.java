package io.hbasesessions.benchmarks.http;

import io.hbasesessions.testing.NodeOptions.Sessions;
import io.hbasesessions.testing.NodeProgram;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One container with one session store, as a node to start: {@code storeKey} names it in the results,
 * {@code label} is what the report calls it. The node is the benchmark's node program of that container,
 * started with {@code sessions} and {@code storeSettings}, plus the program's own {@code arguments} (a
 * peer's store). The baseline of each container is its in-memory default: every other candidate of that
 * container is reported as a ratio to it.
 */
public record Candidate(String container, String storeKey, String label, boolean baseline, NodeProgram program,
        Sessions sessions, Map<String, String> storeSettings, List<String> arguments) {

    static final String TOMCAT = "Tomcat 10.1";
    static final String JETTY = "Jetty 12.1";

    private static final NodeProgram TOMCAT_NODE = new NodeProgram("Tomcat",
            "io.hbasesessions.benchmarks.tomcat.BenchmarkTomcatNode", "io/hbasesessions/benchmarks/tomcat/node.classpath", null);
    private static final NodeProgram JETTY_NODE = new NodeProgram("Jetty",
            "io.hbasesessions.benchmarks.jetty.BenchmarkJettyNode", "io/hbasesessions/benchmarks/jetty/node.classpath", null);

    /** The container's own in-memory sessions: the ceiling. */
    public static Candidate tomcatInMemory(String label) {
        return new Candidate(TOMCAT, "standard", label, true, TOMCAT_NODE, Sessions.MEMORY, Map.of(), List.of());
    }

    public static Candidate tomcatHBase(String label, Map<String, String> storeSettings) {
        return new Candidate(TOMCAT, "hbase", label, false, TOMCAT_NODE, Sessions.HBASE, storeSettings, List.of());
    }

    /** A peer's store, chosen by the node program's {@code arguments}. */
    public static Candidate tomcatPeer(String storeKey, String label, List<String> arguments) {
        return new Candidate(TOMCAT, storeKey, label, false, TOMCAT_NODE, Sessions.MEMORY, Map.of(), arguments);
    }

    public static Candidate jettyInMemory(String label) {
        return new Candidate(JETTY, "memory", label, true, JETTY_NODE, Sessions.MEMORY, Map.of(), List.of());
    }

    public static Candidate jettyHBase(String label, Map<String, String> storeSettings) {
        return new Candidate(JETTY, "hbase", label, false, JETTY_NODE, Sessions.HBASE, storeSettings, List.of());
    }

    public static Candidate jettyPeer(String storeKey, String label, List<String> arguments) {
        return new Candidate(JETTY, storeKey, label, false, JETTY_NODE, Sessions.MEMORY, Map.of(), arguments);
    }

    /** Whether the node's counters include the HBase store's writes. */
    boolean countsHBaseWrites() {
        return sessions == Sessions.HBASE && arguments.isEmpty();
    }

    /** {@code tomcat-hbase}, {@code jetty-memory}...: names the node's log and work directory. */
    public String name() {
        return container.split(" ")[0].toLowerCase(Locale.ROOT) + "-" + storeKey;
    }
}
