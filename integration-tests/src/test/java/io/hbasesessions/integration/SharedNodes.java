package io.hbasesessions.integration;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProgram;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The four nodes the pairs of {@link AbstractTwoNodeSessionsIT} share: Tomcat 10.1 and Tomcat 11 (routes
 * {@code t10}, {@code t11}) and two Jetty 12.1 nodes (worker names {@code node0}, {@code node1}), each a
 * JVM of its own, all serving the test WAR at {@code /app} with their sessions in one table of the JVM's
 * shared HBase. No node sets {@code keyScope}: the default (the context path) is the same on both
 * containers. They set {@code principalAttribute} (the WAR's application login), so that is what
 * "log out everywhere" finds on them; {@link LogHygieneIT}'s nodes keep the default (the container login).
 * Tomcat 11 writes new sessions with {@code serializer=java}, the others with Kryo (the default): a
 * session keeps the codec it was created with, every node reads both, so the Tomcat pair tests both
 * codecs and each codec's sessions on a node configured for the other. Every node authenticates its
 * state cells with one key file ({@code stateProtection}): Tomcat 10.1 and {@code jetty-a} with
 * {@code hmac}, Tomcat 11 and {@code jetty-b} with {@code encrypt}, so the Tomcat-and-Jetty pair runs
 * with {@code hmac} on both containers and the other pairs read cells of both modes.
 *
 * <p>Started once per test JVM, by the first pair class that asks ({@link #startOn}), and stopped when
 * the JVM's tests end. Each test makes sessions of its own; tests run one at a time, so a test may read
 * a node's counters before and after its own requests. Their logs: {@code target/nodes/shared/}.
 */
final class SharedNodes implements ExtensionContext.Store.CloseableResource {

    static final String TOMCAT_10 = "tomcat-10.1";
    static final String TOMCAT_11 = "tomcat-11";
    static final String JETTY_A = "jetty-a";
    static final String JETTY_B = "jetty-b";
    /** The session attribute the WAR's application login keeps its user in. */
    static final String PRINCIPAL_ATTRIBUTE = "appUser";

    private final TestNodes nodes = new TestNodes("shared");
    private final Map<String, Node> byName = new LinkedHashMap<>();
    private Map<String, String> settings;
    private StoredSessions stored;

    /** Starts the four nodes on {@code hbase}, unless they run already; returns once all serve. */
    synchronized SharedNodes startOn(EmbeddedHBase hbase) throws InterruptedException {
        if (!byName.isEmpty()) {
            return this;
        }
        Instant started = Instant.now();
        settings = TestNodes.storeSettings(hbase, "conformance");
        settings.put("principalAttribute", PRINCIPAL_ATTRIBUTE);
        settings.put("stateProtection", "hmac");
        settings.put("stateKeyFile", TestNodes.writeStateKey(nodes.directory().resolve("state-keys")).toString());
        Map<String, NodeProcess> processes = new LinkedHashMap<>();
        processes.put(TOMCAT_10, nodes.start(nodes.node(NodeProgram.TOMCAT_10_1, TOMCAT_10).route("t10").storeSettings(settings)));
        processes.put(TOMCAT_11, nodes.start(nodes.node(NodeProgram.TOMCAT_11, TOMCAT_11).route("t11").storeSettings(settings)
                .storeSetting("serializer", "java").storeSetting("stateProtection", "encrypt")));
        processes.put(JETTY_A, nodes.start(nodes.node(NodeProgram.JETTY_12_1, JETTY_A).route("node0").storeSettings(settings)));
        processes.put(JETTY_B, nodes.start(nodes.node(NodeProgram.JETTY_12_1, JETTY_B).route("node1").storeSettings(settings)
                .storeSetting("stateProtection", "encrypt")));
        nodes.awaitReady();
        byName.put(TOMCAT_10, new Node(TOMCAT_10, Node.Kind.TOMCAT, "t10", processes.get(TOMCAT_10)));
        byName.put(TOMCAT_11, new Node(TOMCAT_11, Node.Kind.TOMCAT, "t11", processes.get(TOMCAT_11)));
        byName.put(JETTY_A, new Node(JETTY_A, Node.Kind.JETTY, "node0", processes.get(JETTY_A)));
        byName.put(JETTY_B, new Node(JETTY_B, Node.Kind.JETTY, "node1", processes.get(JETTY_B)));
        stored = TestNodes.inspector(settings);
        Figures.print("shared nodes", "4 node JVMs serving after " + Duration.between(started, Instant.now()).toMillis()
                + " ms: " + byName.keySet());
        return this;
    }

    Node node(String name) {
        Node node = byName.get(name);
        if (node == null) {
            throw new IllegalStateException("No shared node " + name + " (started: " + byName.keySet() + ")");
        }
        return node;
    }

    /** The nodes' store settings, by configuration name. */
    Map<String, String> settings() {
        return Map.copyOf(settings);
    }

    /** The nodes' table as the store reads it. */
    StoredSessions stored() {
        return stored;
    }

    @Override
    public void close() {
        nodes.stopAll();
        if (stored != null) {
            stored.close();
        }
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
