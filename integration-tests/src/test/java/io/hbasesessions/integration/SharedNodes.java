package io.hbasesessions.integration;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.Setting;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProgram;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The nodes the pairs of {@link AbstractTwoNodeSessionsIT} share, in groups started when a pair of the group is
 * first asked for ({@link #startWith}), each node a JVM of its own serving the test WAR at {@code /app}.
 *
 * <p>The conformance group: Tomcat 10.1 and Tomcat 11 (routes {@code t10}, {@code t11}) and two Jetty 12.1 nodes
 * (worker names {@code node0}, {@code node1}), their sessions in one table of the JVM's shared HBase. No node sets
 * {@code keyScope}: the default (the context path) is the same on both containers. They set
 * {@code principalAttribute} (the WAR's application login), so that is what "log out everywhere" finds on them;
 * {@link LogHygieneIT}'s nodes keep the default (the container login). Tomcat 11 writes new sessions with
 * {@code serializer=java}, the others with Kryo (the default): a session keeps the codec it was created with, every
 * node reads both, so the Tomcat pair tests both codecs and each codec's sessions on a node configured for the other.
 * Every node authenticates its state cells with one key file ({@code stateProtection}): Tomcat 10.1 and
 * {@code jetty-a} with {@code hmac}, Tomcat 11 and {@code jetty-b} with {@code encrypt}, so the Tomcat-and-Jetty
 * pair runs with {@code hmac} on both containers and the other pairs read cells of both modes.
 *
 * <p>The sticky groups, one per container ({@code sticky-tomcat-10.1} and {@code sticky-tomcat-11},
 * {@code sticky-jetty-a} and {@code sticky-jetty-b}): the same nodes with {@code stickySessions=true} (and the
 * default {@code stickyStalenessMillis}), on tables of the group's own, changes table included, so that nothing
 * another group does reaches their copies.
 *
 * <p>A group is started once per test JVM, by the first class that asks, and stopped when the JVM's tests end.
 * Each test makes sessions of its own; tests run one at a time, so a test may read a node's counters before and
 * after its own requests. Their logs: {@code target/nodes/<group>-<pid of the test JVM>/}: two test JVMs may start
 * one group at the same moment, and each clears its directory first.
 */
final class SharedNodes implements ExtensionContext.Store.CloseableResource {

    static final String TOMCAT_10 = "tomcat-10.1";
    static final String TOMCAT_11 = "tomcat-11";
    static final String JETTY_A = "jetty-a";
    static final String JETTY_B = "jetty-b";
    static final String STICKY_TOMCAT_10 = "sticky-tomcat-10.1";
    static final String STICKY_TOMCAT_11 = "sticky-tomcat-11";
    static final String STICKY_JETTY_A = "sticky-jetty-a";
    static final String STICKY_JETTY_B = "sticky-jetty-b";
    /** The session attribute the WAR's application login keeps its user in. */
    static final String PRINCIPAL_ATTRIBUTE = "appUser";

    /** One node of a group: its program, route and the settings it has besides the group's. */
    private record NodeSpec(String name, NodeProgram program, Node.Kind kind, String route, Map<String, String> own) {
    }

    /** A group of nodes on tables of their own ({@code tablePrefix}), with the settings all of them have. */
    private enum Group {
        CONFORMANCE("shared", "conformance", Map.of(),
                new NodeSpec(TOMCAT_10, NodeProgram.TOMCAT_10_1, Node.Kind.TOMCAT, "t10", Map.of()),
                new NodeSpec(TOMCAT_11, NodeProgram.TOMCAT_11, Node.Kind.TOMCAT, "t11", Map.of("serializer", "java",
                        "stateProtection", "encrypt")),
                new NodeSpec(JETTY_A, NodeProgram.JETTY_12_1, Node.Kind.JETTY, "node0", Map.of()),
                new NodeSpec(JETTY_B, NodeProgram.JETTY_12_1, Node.Kind.JETTY, "node1", Map.of("stateProtection",
                        "encrypt"))),
        STICKY_TOMCAT("sticky-tomcat", "sticky_tomcat", Map.of("stickySessions", "true", "changesTable",
                "sticky_tomcat_session_changes"),
                new NodeSpec(STICKY_TOMCAT_10, NodeProgram.TOMCAT_10_1, Node.Kind.TOMCAT, "t10", Map.of()),
                new NodeSpec(STICKY_TOMCAT_11, NodeProgram.TOMCAT_11, Node.Kind.TOMCAT, "t11", Map.of("serializer",
                        "java", "stateProtection", "encrypt"))),
        STICKY_JETTY("sticky-jetty", "sticky_jetty", Map.of("stickySessions", "true", "changesTable",
                "sticky_jetty_session_changes"),
                new NodeSpec(STICKY_JETTY_A, NodeProgram.JETTY_12_1, Node.Kind.JETTY, "node0", Map.of()),
                new NodeSpec(STICKY_JETTY_B, NodeProgram.JETTY_12_1, Node.Kind.JETTY, "node1", Map.of("stateProtection",
                        "encrypt")));

        private final String directory;
        private final String tablePrefix;
        private final Map<String, String> settings;
        private final List<NodeSpec> nodes;

        Group(String directory, String tablePrefix, Map<String, String> settings, NodeSpec... nodes) {
            this.directory = directory;
            this.tablePrefix = tablePrefix;
            this.settings = settings;
            this.nodes = List.of(nodes);
        }

        static Group of(String nodeName) {
            for (Group group : values()) {
                if (group.nodes.stream().anyMatch(node -> node.name().equals(nodeName))) {
                    return group;
                }
            }
            throw new IllegalArgumentException("No shared node is named " + nodeName);
        }
    }

    /** A group's nodes once they serve. */
    private record Started(TestNodes processes, Map<String, String> settings, StoredSessions stored,
            Map<String, Node> byName) {
    }

    private final Map<Group, Started> started = new LinkedHashMap<>();

    /** Starts the conformance group on {@code hbase}, unless it runs already; returns once all its nodes serve. */
    SharedNodes startOn(EmbeddedHBase hbase) throws InterruptedException {
        return startWith(hbase, TOMCAT_10);
    }

    /** Starts the group of node {@code name} on {@code hbase}, unless it runs already; returns once all its nodes serve. */
    synchronized SharedNodes startWith(EmbeddedHBase hbase, String name) throws InterruptedException {
        Group group = Group.of(name);
        if (!started.containsKey(group)) {
            started.put(group, start(hbase, group));
        }
        return this;
    }

    private static Started start(EmbeddedHBase hbase, Group group) throws InterruptedException {
        Instant began = Instant.now();
        TestNodes nodes = new TestNodes(group.directory + "-" + ProcessHandle.current().pid());
        Map<String, String> settings = TestNodes.storeSettings(hbase, group.tablePrefix);
        settings.put("principalAttribute", PRINCIPAL_ATTRIBUTE);
        settings.put("stateProtection", "hmac");
        settings.put("stateKeyFile", TestNodes.writeStateKey(nodes.directory().resolve("state-keys")).toString());
        settings.putAll(group.settings);
        Map<String, NodeProcess> processes = new LinkedHashMap<>();
        for (NodeSpec node : group.nodes) {
            processes.put(node.name(), nodes.start(nodes.node(node.program(), node.name()).route(node.route())
                    .storeSettings(settings).storeSettings(node.own())));
        }
        nodes.awaitReady();
        Map<String, Node> byName = new LinkedHashMap<>();
        for (NodeSpec node : group.nodes) {
            byName.put(node.name(), new Node(node.name(), node.kind(), node.route(), processes.get(node.name())));
        }
        // The tests' own view of the tables reads as an operator's store does: without the mode, which needs a route.
        Map<String, String> inspection = new LinkedHashMap<>(settings);
        inspection.remove(Setting.STICKY_SESSIONS.name());
        Figures.print("shared nodes", byName.size() + " node JVMs serving after " + Duration.between(began, Instant.now())
                .toMillis() + " ms: " + byName.keySet());
        return new Started(nodes, settings, TestNodes.inspector(inspection), byName);
    }

    Node node(String name) {
        Started group = started.get(Group.of(name));
        Node node = group == null ? null : group.byName().get(name);
        if (node == null) {
            throw new IllegalStateException("The shared node " + name + " was not started (started: " + started.values()
                    .stream().map(each -> each.byName().keySet()).toList() + ")");
        }
        return node;
    }

    /** The conformance group's store settings, by configuration name. */
    Map<String, String> settings() {
        return settingsOf(TOMCAT_10);
    }

    /** The store settings of node {@code name}'s group (those every node of it has), by configuration name. */
    Map<String, String> settingsOf(String name) {
        node(name);
        return Map.copyOf(started.get(Group.of(name)).settings());
    }

    /**
     * With {@code stickySessions} on node {@code name}'s group: {@code stickyStalenessMillis}, within which a change
     * made on one node reaches the other nodes' copies; without it, zero (the nodes keep no copies).
     */
    Duration copiesBoundOf(String name) {
        Map<String, String> settings = settingsOf(name);
        if (!Boolean.parseBoolean(settings.get(Setting.STICKY_SESSIONS.name()))) {
            return Duration.ZERO;
        }
        String staleness = settings.get(Setting.STICKY_STALENESS_MILLIS.name());
        return Duration.ofMillis(staleness != null ? Long.parseLong(staleness)
                : Setting.STICKY_STALENESS_MILLIS.defaultValue().orElseThrow());
    }

    /** The conformance group's table as the store reads it. */
    StoredSessions stored() {
        return storedOf(TOMCAT_10);
    }

    /** The table of node {@code name}'s group as the store reads it. */
    StoredSessions storedOf(String name) {
        node(name);
        return started.get(Group.of(name)).stored();
    }

    @Override
    public void close() {
        List<Started> groups = new ArrayList<>(started.values());
        groups.parallelStream().forEach(group -> group.processes().stopAll());
        groups.forEach(group -> group.stored().close());
    }

    /** Resolves {@code SharedNodes} parameters: the one instance of the test JVM, kept in JUnit's root store. */
    static final class Resolver implements ParameterResolver {
        private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(SharedNodes.class);

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == SharedNodes.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
            return context.getRoot().getStore(STORE).getOrComputeIfAbsent(SharedNodes.class, key -> new SharedNodes(),
                    SharedNodes.class);
        }
    }
}
