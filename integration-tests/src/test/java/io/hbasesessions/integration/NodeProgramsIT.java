package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.NodeOptions.Sessions;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProcessException;
import io.hbasesessions.testing.NodeProgram;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The node programs as the launcher starts them, and what the integration tests, the demo and the
 * benchmarks rely on: the Tomcat node on both Tomcat lines, a node killed and restarted on its port,
 * the containers' own in-memory sessions, and a store setting the store does not know.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NodeProgramsIT {

    private final TestNodes nodes = new TestNodes("node-programs");
    private Map<String, String> settings;
    private StoredSessions stored;

    @BeforeAll
    void openTheStore(EmbeddedHBase hbase, TestNamespace namespace) {
        settings = TestNodes.storeSettings(hbase, namespace, "node-programs");
        stored = TestNodes.inspector(settings);
    }

    @AfterAll
    void stopEverything() {
        nodes.stopAll();
        stored.close();
    }

    @Test
    void theTomcatNodeServesOnTomcat10AndOn11AndTheyShareSessions() throws Exception {
        NodeProcess tomcat10 = nodes.start(nodes.node(NodeProgram.TOMCAT_10_1, "tomcat-10").route("t10").storeSettings(settings));
        NodeProcess tomcat11 = nodes.start(nodes.node(NodeProgram.TOMCAT_11, "tomcat-11").route("t11").storeSettings(settings));
        nodes.awaitReady();
        assertEquals("Apache Tomcat/" + System.getProperty("tomcat10.version"), tomcat10.serverInfo());
        assertEquals("Apache Tomcat/" + System.getProperty("tomcat11.version"), tomcat11.serverInfo());

        Browser browser = new Browser();
        browser.get(servlet(tomcat10), "op=put&name=cart&value=book").expect(200);
        assertTrue(browser.cookie().endsWith(".t10"), "the route: " + browser.cookie());
        assertEquals("Note(book)", browser.get(servlet(tomcat11), "op=get").expect(200).attribute("cart"));
        browser.get(servlet(tomcat11), "op=put&name=size&value=large").expect(200);
        assertEquals(Map.of("cart", "Note(book)", "size", "Note(large)"), browser.get(servlet(tomcat10), "op=get").attributes());
        assertTrue(stored.exists(browser.sessionId()), "the session is not in HBase");
    }

    @Test
    void aKilledNodeComesBackOnItsPortAndTheSessionWithIt() throws Exception {
        NodeProcess jetty = nodes.start(NodeProgram.JETTY_12_1, "jetty-killed", settings);
        jetty.awaitReady(TestNodes.START_TIMEOUT);
        Browser browser = new Browser();
        browser.get(servlet(jetty), "op=put&name=cart&value=book").expect(200);
        browser.get(servlet(jetty), "op=append&name=notes&value=in-place").expect(200);
        int port = jetty.port();

        jetty.kill();
        assertFalse(jetty.isAlive(), "kill -9 left the node running");
        jetty.restart(TestNodes.START_TIMEOUT);

        assertEquals(port, jetty.port(), "restarted on another port");
        Browser.Answer after = browser.get(servlet(jetty), "op=get").expect(200);
        assertEquals("Note(book)", after.attribute("cart"));
        assertEquals("[Note(in-place)]", after.attribute("notes"));
    }

    @Test
    void inMemorySessionsStayInTheNodeAndEndWithIt() throws Exception {
        NodeProcess tomcat = nodes.start(nodes.node(NodeProgram.TOMCAT_10_1, "tomcat-memory").sessions(Sessions.MEMORY));
        tomcat.awaitReady(TestNodes.START_TIMEOUT);
        Browser browser = new Browser();
        browser.get(servlet(tomcat), "op=put&name=cart&value=book").expect(200);
        assertEquals("Note(book)", browser.get(servlet(tomcat), "op=get").attribute("cart"));
        assertFalse(stored.exists(browser.sessionId()), "an in-memory session is in HBase");

        tomcat.restart(TestNodes.START_TIMEOUT);

        assertEquals("none", browser.get(servlet(tomcat), "op=get").value("id"), "the session outlived its node");
    }

    @Test
    void aStoreSettingTheStoreDoesNotKnowStopsTheNodeWithItsName() throws IOException {
        NodeProcess jetty = nodes.start(nodes.node(NodeProgram.JETTY_12_1, "jetty-misconfigured").storeSettings(settings)
                .storeSetting("tabel", "sessions"));

        NodeProcessException failure = assertThrows(NodeProcessException.class, () -> jetty.awaitReady(TestNodes.START_TIMEOUT));

        assertTrue(failure.getMessage().startsWith("The Jetty node exited while starting (exit code 1): see "),
                failure.getMessage());
        String log = Files.readString(jetty.log());
        assertTrue(log.contains("error: Unknown setting 'tabel'. Known settings: "), log);
    }

    private static URI servlet(NodeProcess node) {
        return node.url().resolve("session");
    }
}
