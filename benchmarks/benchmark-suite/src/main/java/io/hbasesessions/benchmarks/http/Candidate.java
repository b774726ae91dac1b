package io.hbasesessions.benchmarks.http;

import io.hbasesessions.testing.NodeOptions.Sessions;
import io.hbasesessions.testing.NodeProgram;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One container with one session store, as a node to start: {@code storeKey} names it in the results,
 * {@code label} is what the report calls it. The node is the container's benchmark node program,
 * started with {@code sessions} and {@code storeSettings}, plus the program's own {@code arguments} for
 * a peer's store, and with {@code route} as the suffix of the session ids it issues (Tomcat's jvmRoute,
 * Jetty's worker name) when a sticky setup needs one. The baseline of each container is its in-memory default:
 * every other candidate of that container is reported as a ratio to it.
 */
public record Candidate(Container container, String storeKey, String label, boolean baseline, Sessions sessions,
        Map<String, String> storeSettings, List<String> arguments, Backend backend, Optional<String> route) {

    /** The server that holds the candidate's sessions, whose CPU per request the report shows beside the node's. */
    public enum Backend {
        NONE, HBASE, REDIS, POSTGRESQL
    }

    /** A container under test: its benchmark node program, and the store key of its in-memory ceiling. */
    public enum Container {
        TOMCAT("Tomcat 10.1", "standard", new NodeProgram("Tomcat", "io.hbasesessions.benchmarks.tomcat.BenchmarkTomcatNode",
                "io/hbasesessions/benchmarks/tomcat/node.classpath", null)),
        JETTY("Jetty 12.1", "memory", new NodeProgram("Jetty", "io.hbasesessions.benchmarks.jetty.BenchmarkJettyNode",
                "io/hbasesessions/benchmarks/jetty/node.classpath", null));

        private final String label;
        private final String ceilingKey;
        private final NodeProgram program;

        Container(String label, String ceilingKey, NodeProgram program) {
            this.label = label;
            this.ceilingKey = ceilingKey;
            this.program = program;
        }

        /** "Tomcat 10.1", "Jetty 12.1": what the report calls it. */
        @Override
        public String toString() {
            return label;
        }
    }

    /** The container's own in-memory sessions: the ceiling. */
    public static Candidate inMemory(Container container, String label) {
        return new Candidate(container, container.ceilingKey, label, true, Sessions.MEMORY, Map.of(), List.of(),
                Backend.NONE, Optional.empty());
    }

    public static Candidate hbase(Container container, String label, Map<String, String> storeSettings) {
        return hbase(container, "hbase", label, storeSettings);
    }

    /** The HBase store with other settings than the main HBase row's, named by {@code storeKey}. */
    public static Candidate hbase(Container container, String storeKey, String label, Map<String, String> storeSettings) {
        return new Candidate(container, storeKey, label, false, Sessions.HBASE, storeSettings, List.of(), Backend.HBASE,
                Optional.empty());
    }

    /** A peer's store, chosen by the node program's own {@code arguments}. */
    public static Candidate peer(Container container, String storeKey, String label, Backend backend,
            List<String> arguments) {
        return new Candidate(container, storeKey, label, false, Sessions.MEMORY, Map.of(), arguments, backend,
                Optional.empty());
    }

    /**
     * Spring Session's filter in front of the WAR on the container's node, its repository chosen by the node program's
     * own {@code arguments}; the container's in-memory manager stays in place, unused. {@code storeSettings} are the
     * HBase store's, for our repository.
     */
    public static Candidate springSession(Container container, String storeKey, String label, Backend backend,
            Map<String, String> storeSettings, List<String> arguments) {
        return new Candidate(container, storeKey, label, false, Sessions.MEMORY, storeSettings, arguments, backend,
                Optional.empty());
    }

    /** This candidate on a node whose session ids carry {@code nodeRoute}, as a sticky load balancer needs. */
    public Candidate onRoute(String nodeRoute) {
        return new Candidate(container, storeKey, label, baseline, sessions, storeSettings, arguments, backend,
                Optional.of(nodeRoute));
    }

    NodeProgram program() {
        return container.program;
    }

    /** Whether the node's counters include the HBase store's writes: its sessions are in HBase, by whatever adapter. */
    boolean countsHBaseWrites() {
        return backend == Backend.HBASE;
    }

    /** {@code tomcat-hbase}, {@code jetty-memory}...: names the node's log and work directory. */
    public String name() {
        return container.name().toLowerCase(Locale.ROOT) + "-" + storeKey;
    }
}
