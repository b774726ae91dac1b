package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.IndexedSession;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two Jetty nodes serving the real WAR, one HBase, requests of one session alternating between them. */
@ExtendWith(HBaseExtension.class)
class NonStickyNodesTest {

    private static JettyNode nodeA;
    private static JettyNode nodeB;
    private static SessionStore hbase;

    @BeforeAll
    static void startNodes(EmbeddedHBase server, TestNamespace namespace) {
        Map<String, String> settings = TestStores.settings(server, namespace);
        nodeA = JettyNode.start("node0", settings);
        nodeB = JettyNode.start("node1", settings);
        hbase = TestStores.inspector(settings);
    }

    @AfterAll
    static void stopNodes() {
        nodeA.close();
        nodeB.close();
        hbase.close();
    }

    @Test
    void runsOnTheJettyLineOfThisTestRun() {
        String line = System.getProperty("jetty.line");
        assertTrue(nodeA.jettyVersion().startsWith(line + "."), nodeA.jettyVersion() + " is not Jetty " + line);
    }

    @Test
    void aChangeOnOneNodeIsSeenOnTheOtherAtOnce() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=put&name=cart&value=book");
        for (int i = 0; i < 10; i++) {
            JettyNode writer = i % 2 == 0 ? nodeB : nodeA;
            JettyNode reader = i % 2 == 0 ? nodeA : nodeB;
            browser.get(writer.servlet(), "op=put&name=cart&value=book-" + i);
            Answer read = browser.get(reader.servlet(), "op=get");
            assertEquals("Note(book-" + i + ")", read.attribute("cart"), "stale copy served on round " + i);
        }
    }

    @Test
    void anObjectChangedInPlaceIsStoredAndSeenOnTheOtherNode() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=append&name=notes&value=one");
        browser.get(nodeB.servlet(), "op=append&name=notes&value=two");
        browser.get(nodeA.servlet(), "op=append&name=notes&value=three");

        String notes = browser.get(nodeB.servlet(), "op=get").attribute("notes");

        assertTrue(notes.contains("one") && notes.contains("two") && notes.contains("three"), notes);
    }

    @Test
    void invalidationOnOneNodeEndsTheSessionOnBoth() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=put&name=cart&value=book");
        String id = browser.sessionId();

        assertEquals("true", browser.get(nodeB.servlet(), "op=invalidate").value("invalidated"));

        assertEquals("none", browser.get(nodeA.servlet(), "op=get").value("id"));
        assertEquals("none", browser.get(nodeB.servlet(), "op=get").value("id"));
        assertFalse(hbase.exists(id));
    }

    @Test
    void concurrentRequestsOnTwoNodesLoseNoAttribute() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=create");
        int perNode = 200;

        CompletableFuture<Void> onA = CompletableFuture.runAsync(() -> IntStream.range(0, perNode)
                .forEach(i -> browser.get(nodeA.servlet(), "op=put&name=a" + i + "&value=" + i)));
        CompletableFuture<Void> onB = CompletableFuture.runAsync(() -> IntStream.range(0, perNode)
                .forEach(i -> browser.get(nodeB.servlet(), "op=put&name=b" + i + "&value=" + i)));
        CompletableFuture.allOf(onA, onB).join();

        Map<String, String> values = browser.get(nodeA.servlet(), "op=get").values();
        long attributes = values.keySet().stream().filter(key -> key.startsWith("attr.")).count();
        assertEquals(2 * perNode, attributes, "attributes lost under concurrent requests");
        StoreCounters a = nodeA.dataStore().getCounters();
        StoreCounters b = nodeB.dataStore().getCounters();
        System.out.printf("concurrent puts: conflicts A=%d B=%d, retries A=%d B=%d%n",
                a.conflicts(), b.conflicts(), a.conflictRetries(), b.conflictRetries());
    }

    @Test
    void readOnlyRequestsWithinTheTouchIntervalWriteNothing() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=put&name=cart&value=book");
        long writesBefore = sessionWrites();

        for (int i = 0; i < 20; i++) {
            browser.get((i % 2 == 0 ? nodeA : nodeB).servlet(), "op=touch");
            browser.get((i % 2 == 0 ? nodeB : nodeA).servlet(), "op=get");
        }

        assertEquals(writesBefore, sessionWrites(), "read-only requests wrote to HBase");
    }

    @Test
    void changeSessionIdMovesTheSession() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=put&name=cart&value=book");
        String oldId = browser.sessionId();

        Answer changed = browser.get(nodeB.servlet(), "op=change-id");

        assertEquals(oldId, changed.value("oldId"));
        assertNotEquals(oldId, browser.sessionId());
        assertEquals("Note(book)", browser.get(nodeA.servlet(), "op=get").attribute("cart"));
        assertFalse(hbase.exists(oldId), "the old id still names a session");
        assertTrue(hbase.exists(browser.sessionId()));
        assertEquals("none", Browser.withCookie(oldId + ".node0").get(nodeA.servlet(), "op=get").value("id"));
    }

    @Test
    void loginRenewsTheIdAndRecordsThePrincipalOnEveryNode() {
        Browser browser = new Browser();
        browser.get(nodeA.servlet(), "op=put&name=cart&value=book");
        String anonymousId = browser.sessionId();

        browser.get(nodeA.servlet(), "op=login&user=" + JettyNode.USER + "&password=" + JettyNode.PASSWORD);

        assertNotEquals(anonymousId, browser.sessionId());
        assertEquals(JettyNode.USER, browser.get(nodeB.servlet(), "op=whoami").value("user"));
        assertEquals("Note(book)", browser.get(nodeB.servlet(), "op=get").attribute("cart"));
        List<IndexedSession> sessions = hbase.findByPrincipal(JettyNode.USER);
        assertEquals(1, sessions.size(), "principal index: " + sessions);
    }

    /** Through the function the store publishes to the web application, as the demo's button uses it. */
    @Test
    void revokingTheUserFromTheWebappLogsEveryBrowserOutOnEveryNode() {
        int fromOtherTests = hbase.findByPrincipal(JettyNode.USER).size();
        Browser laptop = new Browser();
        laptop.get(nodeA.servlet(), "op=login&user=" + JettyNode.USER + "&password=" + JettyNode.PASSWORD);
        Browser phone = new Browser();
        phone.get(nodeB.servlet(), "op=login&user=" + JettyNode.USER + "&password=" + JettyNode.PASSWORD);
        assertEquals(JettyNode.USER, phone.get(nodeA.servlet(), "op=whoami").value("user"));

        String revoked = new Browser().get(nodeB.servlet(), "op=revoke-all&user=" + JettyNode.USER).value("revoked");
        assertEquals(String.valueOf(fromOtherTests + 2), revoked);

        for (Browser browser : List.of(laptop, phone)) {
            assertEquals("none", browser.get(nodeA.servlet(), "op=whoami").value("user"));
            assertEquals("none", browser.get(nodeB.servlet(), "op=get").value("id"));
        }
        assertTrue(hbase.findByPrincipal(JettyNode.USER).isEmpty());
    }

    private static long sessionWrites() {
        return nodeA.dataStore().getCounters().sessionWrites() + nodeB.dataStore().getCounters().sessionWrites();
    }
}
