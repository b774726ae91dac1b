package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.ForgedState;
import io.hbasesessions.store.HBaseInspector;
import io.hbasesessions.store.RelocatedGadgets;
import io.hbasesessions.store.RelocatedGadgets.Chain;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.codec.SessionCodec;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.NodeProgram;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue #27 over HTTP, with the defaults a new user gets ({@code stateProtection=none}, no class filter): someone
 * who can write one cell of the sessions table puts a gadget chain built from the Commons Collections relocated
 * inside the shaded HBase client (which every node carries) into a visitor's session, beside an ordinary
 * attribute; the visitor's next ordinary GET reads the session. Before, the Commons Collections 4 chains ran
 * {@code touch <marker>} inside the Tomcat 10.1 node and the Jetty 12.1 node and the client got 200; the 3.2.2
 * chain stopped in the gadget's own {@code readObject}, counted as unreadable. Now no command runs, the chain is
 * counted as refused, and the rest of the session is served.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ForgedGadgetIT {

    private static final Path MARKERS = Path.of("target", "it", "forged-gadget-markers").toAbsolutePath();

    private final TestNodes nodes = new TestNodes("forged-gadgets");
    private final Map<String, Node> byName = new java.util.LinkedHashMap<>();
    private Map<String, String> settings;
    private HBaseInspector tables;

    @BeforeAll
    void startNodes(EmbeddedHBase hbase, TestNamespace namespace, Configuration configuration)
            throws InterruptedException {
        settings = TestNodes.storeSettings(hbase, namespace.table("gadgets"));
        byName.put("tomcat-10.1", new Node("tomcat-10.1", Node.Kind.TOMCAT, "gt", nodes.start(
                nodes.node(NodeProgram.TOMCAT_10_1, "tomcat-10.1").route("gt").storeSettings(settings))));
        byName.put("jetty-12.1", new Node("jetty-12.1", Node.Kind.JETTY, "node0", nodes.start(
                nodes.node(NodeProgram.JETTY_12_1, "jetty-12.1").storeSettings(settings))));
        nodes.awaitReady();
        tables = new HBaseInspector(configuration);
    }

    @AfterAll
    void stopNodes() throws IOException {
        nodes.stopAll();
        if (tables != null) {
            tables.close();
        }
    }

    static Stream<Arguments> chainsAndNodes() {
        List<Arguments> all = new ArrayList<>();
        for (Chain chain : Chain.values()) {
            for (String node : List.of("tomcat-10.1", "jetty-12.1")) {
                all.add(Arguments.of(chain, node));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("chainsAndNodes")
    void aGadgetChainInAForgedCellRunsNothingOnAnOrdinaryGetAndTheSessionLivesOn(Chain chain, String nodeName) {
        Node node = byName.get(nodeName);
        Browser visitor = new Browser();
        visitor.get(node.session(), "op=create").expect(200);
        Path marker = RelocatedGadgets.markerIn(MARKERS, (chain + "-" + nodeName).toLowerCase(Locale.ROOT));
        String id = visitor.sessionId();
        ForgedState.putState(tables, settings.get("table"), TestNodes.CONTEXT_PATH, id, ForgedState.stateCell(id,
                Map.of("greeting", SessionCodec.of(SerializerKind.KRYO, getClass().getClassLoader()).encode("hello"),
                        "cart", chain.forged(marker))));
        Counters before = node.counters();

        Map<String, String> session = visitor.get(node.session(), "op=get").expect(200).values();

        assertFalse(Files.exists(marker), node + " ran the chain's command: " + marker + " exists");
        Counters after = node.counters();
        assertEquals(before.get("refusedAttributes") + 1, after.get("refusedAttributes"),
                node + " did not count the chain as refused (unreadable before: " + before.get("unreadableAttributes")
                        + ", after: " + after.get("unreadableAttributes") + ")");
        assertEquals("hello", session.get("attr.greeting"), "the rest of the session is served: " + session);
        assertFalse(session.containsKey("attr.cart"), "the chain reached the application: " + session);
    }
}
