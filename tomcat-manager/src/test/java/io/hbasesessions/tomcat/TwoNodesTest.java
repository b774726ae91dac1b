package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.tomcat.Browser.Answer;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two embedded Tomcats with different jvmRoutes, one HBase, no sticky sessions: each request of a
 * browser may go to either node.
 */
@ExtendWith(HBaseExtension.class)
class TwoNodesTest {

    private static final int TAB_REQUESTS = 200;

    @TempDir
    static Path tomcatDirectories;
    private static TomcatNode a;
    private static TomcatNode b;

    @BeforeAll
    static void startNodes(EmbeddedHBase hbase, TestNamespace namespace) {
        a = new TomcatNode("a", tomcatDirectories.resolve("a"), () -> TestManagers.manager(hbase, namespace)).start();
        b = new TomcatNode("b", tomcatDirectories.resolve("b"), () -> TestManagers.manager(hbase, namespace)).start();
    }

    @AfterAll
    static void stopNodes() {
        if (a != null) {
            a.close();
        }
        if (b != null) {
            b.close();
        }
    }

    @Test
    void runsOnTheTomcatVersionUnderTest() {
        String expected = System.getProperty("expected.tomcat.version");
        assertEquals("Apache Tomcat/" + expected, new Browser().call(uri(a), "node").value("server"));
    }

    @Test
    void aSessionCreatedOnOneNodeIsChangedOnTheOtherAndSeenBack() {
        Browser browser = new Browser();
        browser.call(uri(a), "put&name=color&value=blue");
        assertTrue(browser.sessionId().endsWith(".a"), "node a adds its route to the ids it issues");

        Answer onB = browser.call(uri(b), "get");
        assertEquals(browser.sessionId(), onB.value("id"));
        assertEquals(Map.of("color", "Note(blue)"), onB.attributes());

        browser.call(uri(b), "put&name=size&value=large");
        assertEquals(Map.of("color", "Note(blue)", "size", "Note(large)"), browser.call(uri(a), "get").attributes());
    }

    @Test
    void anObjectChangedInPlaceIsSavedAndSeenOnTheOtherNode() {
        Browser browser = new Browser();
        browser.call(uri(a), "append&name=list&value=one");
        browser.call(uri(b), "append&name=list&value=two");
        browser.call(uri(a), "append&name=list&value=three");
        assertEquals("[Note(one), Note(two), Note(three)]", browser.call(uri(b), "get").attributes().get("list"));
    }

    @Test
    void invalidationOnOneNodeIsSeenOnTheOther() {
        Browser browser = new Browser();
        browser.call(uri(a), "put&name=x&value=1");
        String id = browser.sessionId();
        assertEquals("true", browser.call(uri(b), "invalidate").value("invalidated"));
        assertEquals("none", Browser.withCookie(id).call(uri(a), "get").value("id"));
        assertEquals("none", Browser.withCookie(id).call(uri(b), "get").value("id"));
    }

    @Test
    void listenersHearEachEventOnTheNodeWhereItHappens() {
        Map<String, Long> aBefore = events(a);
        Map<String, Long> bBefore = events(b);
        Browser browser = new Browser();
        browser.call(uri(a), "listen&name=watcher&value=w"); // created, bound, added; passivated before the save
        browser.call(uri(b), "get"); // activated after the load, passivated before the save
        browser.call(uri(b), "invalidate"); // activated; destroyed, removed, unbound; nothing left to save
        Map<String, Long> onA = difference(aBefore, events(a));
        Map<String, Long> onB = difference(bBefore, events(b));

        assertEquals(Map.of("created", 1L, "attributeAdded", 1L, "bound", 1L, "passivated", 1L), nonZero(onA));
        assertEquals(Map.of("activated", 2L, "passivated", 1L, "destroyed", 1L, "attributeRemoved", 1L,
                "unbound", 1L), nonZero(onB));
    }

    /** Two tabs of one browser, each on its own node, each changing only its own attributes. */
    @Test
    void concurrentTabsOnDifferentNodesLoseNoUpdate() throws Exception {
        Browser first = new Browser();
        first.call(uri(a), "create");
        String id = first.sessionId();
        StoreCounters before = a.hbaseManager().counters();

        CompletableFuture<Void> tabOnA = CompletableFuture.runAsync(() -> useTab(Browser.withCookie(id), a, "tabA"));
        CompletableFuture<Void> tabOnB = CompletableFuture.runAsync(() -> useTab(Browser.withCookie(id), b, "tabB"));
        CompletableFuture.allOf(tabOnA, tabOnB).get(3, TimeUnit.MINUTES);

        Map<String, String> attributes = Browser.withCookie(id).call(uri(a), "get").attributes();
        for (String tab : new String[] {"tabA", "tabB"}) {
            for (int i = 0; i < TAB_REQUESTS; i++) {
                assertEquals("Note(" + i + ")", attributes.get(tab + "-" + i), tab + "'s attribute " + i);
            }
            assertEquals(String.valueOf(TAB_REQUESTS), attributes.get(tab + "-count"), tab + "'s counter");
        }
        assertEquals(2 * TAB_REQUESTS + 2, attributes.size());
        System.out.println("Two tabs, " + 2 * TAB_REQUESTS + " requests each: conflicts merged on node a: "
                + (a.hbaseManager().counters().conflicts() - before.conflicts()));
    }

    @Test
    void loginMovesTheSessionToANewIdThatEveryNodeRecognises() {
        Browser browser = new Browser();
        browser.call(uri(a), "put&name=cart&value=book");
        String anonymousId = browser.sessionId();

        Answer login = browser.call(uri(a), "login&user=alice&password=" + TestRealm.PASSWORD);
        assertEquals(200, login.status(), login.body());
        String loggedInId = browser.sessionId();
        assertNotEquals(anonymousId, loggedInId);
        assertEquals(loggedInId, login.value("id"));

        assertEquals("none", Browser.withCookie(anonymousId).call(uri(a), "get").value("id"), "the old id on a");
        assertEquals("none", Browser.withCookie(anonymousId).call(uri(b), "get").value("id"), "the old id on b");
        Answer onB = browser.call(uri(b), "get");
        assertEquals(loggedInId, onB.value("id"));
        assertEquals("alice", onB.value("principal"));
        assertEquals(Map.of("cart", "Note(book)"), onB.attributes(), "all attributes, and no reserved ones");
        assertEquals("alice", browser.call(uri(b), "whoami").value("user"));
    }

    @Test
    void logoutOnOneNodeOrRevokingTheUserLogsOutEverywhere() {
        Browser alice = new Browser();
        alice.call(uri(a), "login&user=alice&password=" + TestRealm.PASSWORD);
        assertEquals("alice", alice.call(uri(b), "whoami").value("user"));
        alice.call(uri(b), "logout");
        assertEquals("none", alice.call(uri(a), "whoami").value("user"));

        Browser bob = new Browser();
        bob.call(uri(b), "login&user=bob&password=" + TestRealm.PASSWORD);
        assertEquals("bob", bob.call(uri(a), "whoami").value("user"));
        assertEquals(1, a.hbaseManager().revokeAll("bob"));
        assertEquals("none", bob.call(uri(b), "whoami").value("user"));
        assertEquals("none", bob.call(uri(b), "get").value("id"));
    }

    /** Through the function the manager publishes to the web application, as the demo's button uses it. */
    @Test
    void revokingTheUserFromTheWebappLogsEveryBrowserOutOnEveryNode() {
        Browser laptop = new Browser();
        laptop.call(uri(a), "login&user=carol&password=" + TestRealm.PASSWORD);
        Browser phone = new Browser();
        phone.call(uri(b), "login&user=carol&password=" + TestRealm.PASSWORD);
        assertEquals("carol", phone.call(uri(a), "whoami").value("user"));

        assertEquals("2", new Browser().call(uri(b), "revoke-all&user=carol").value("revoked"));

        for (Browser browser : new Browser[] {laptop, phone}) {
            assertEquals("none", browser.call(uri(a), "whoami").value("user"));
            assertEquals("none", browser.call(uri(b), "get").value("id"));
        }
    }

    private static void useTab(Browser tab, TomcatNode node, String name) {
        for (int i = 0; i < TAB_REQUESTS; i++) {
            Answer put = tab.call(uri(node), "put&name=" + name + "-" + i + "&value=" + i);
            assertEquals(200, put.status(), put.body());
            Answer increment = tab.call(uri(node), "incr&name=" + name + "-count");
            assertEquals(200, increment.status(), increment.body());
        }
    }

    private static Map<String, Long> events(TomcatNode node) {
        Map<String, Long> counts = new TreeMap<>();
        new Browser().call(uri(node), "events").values().forEach((event, count) -> counts.put(event, Long.valueOf(count)));
        return counts;
    }

    private static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> difference = new TreeMap<>();
        after.forEach((event, count) -> difference.put(event, count - before.getOrDefault(event, 0L)));
        return difference;
    }

    private static Map<String, Long> nonZero(Map<String, Long> counts) {
        Map<String, Long> nonZero = new TreeMap<>(counts);
        nonZero.values().removeIf(count -> count == 0);
        return nonZero;
    }

    private static URI uri(TomcatNode node) {
        return node.baseUri();
    }
}
