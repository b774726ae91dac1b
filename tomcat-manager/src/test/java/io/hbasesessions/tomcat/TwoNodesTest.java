package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
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
        assertEquals("Apache Tomcat/" + expected, new Browser().get(uri(a), "op=node").value("server"));
    }

    @Test
    void aSessionCreatedOnOneNodeIsChangedOnTheOtherAndSeenBack() {
        Browser browser = new Browser();
        browser.get(uri(a), "op=put&name=color&value=blue");
        assertTrue(browser.cookie().endsWith(".a"), "node a adds its route to the ids it issues");

        Answer onB = browser.get(uri(b), "op=get");
        assertEquals(browser.cookie(), onB.value("id"));
        assertEquals(Map.of("color", "Note(blue)"), onB.attributes());

        browser.get(uri(b), "op=put&name=size&value=large");
        assertEquals(Map.of("color", "Note(blue)", "size", "Note(large)"), browser.get(uri(a), "op=get").attributes());
    }

    @Test
    void anObjectChangedInPlaceIsSavedAndSeenOnTheOtherNode() {
        Browser browser = new Browser();
        browser.get(uri(a), "op=append&name=list&value=one");
        browser.get(uri(b), "op=append&name=list&value=two");
        browser.get(uri(a), "op=append&name=list&value=three");
        assertEquals("[Note(one), Note(two), Note(three)]", browser.get(uri(b), "op=get").attributes().get("list"));
    }

    @Test
    void invalidationOnOneNodeIsSeenOnTheOther() {
        Browser browser = new Browser();
        browser.get(uri(a), "op=put&name=x&value=1");
        String id = browser.cookie();
        assertEquals("true", browser.get(uri(b), "op=invalidate").value("invalidated"));
        assertEquals("none", Browser.withCookie(id).get(uri(a), "op=get").value("id"));
        assertEquals("none", Browser.withCookie(id).get(uri(b), "op=get").value("id"));
    }

    @Test
    void listenersHearEachEventOnTheNodeWhereItHappens() {
        Map<String, Long> aBefore = events(a);
        Map<String, Long> bBefore = events(b);
        Browser browser = new Browser();
        browser.get(uri(a), "op=listen&name=watcher&value=w"); // created, bound, added; passivated before the save
        browser.get(uri(b), "op=get"); // activated after the load, passivated before the save
        browser.get(uri(b), "op=invalidate"); // activated; destroyed, removed, unbound; nothing left to save
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
        first.get(uri(a), "op=create");
        String id = first.cookie();
        StoreCounters before = a.hbaseManager().counters();

        CompletableFuture<Void> tabOnA = CompletableFuture.runAsync(() -> useTab(Browser.withCookie(id), a, "tabA"));
        CompletableFuture<Void> tabOnB = CompletableFuture.runAsync(() -> useTab(Browser.withCookie(id), b, "tabB"));
        CompletableFuture.allOf(tabOnA, tabOnB).get(3, TimeUnit.MINUTES);

        Map<String, String> attributes = Browser.withCookie(id).get(uri(a), "op=get").attributes();
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
        browser.get(uri(a), "op=put&name=cart&value=book");
        String anonymousId = browser.cookie();

        Answer login = browser.get(uri(a), "op=login&user=alice&password=" + TestRealm.PASSWORD);
        assertEquals(200, login.status(), login.body());
        String loggedInId = browser.cookie();
        assertNotEquals(anonymousId, loggedInId);
        assertEquals(loggedInId, login.value("id"));

        assertEquals("none", Browser.withCookie(anonymousId).get(uri(a), "op=get").value("id"), "the old id on a");
        assertEquals("none", Browser.withCookie(anonymousId).get(uri(b), "op=get").value("id"), "the old id on b");
        Answer onB = browser.get(uri(b), "op=get");
        assertEquals(loggedInId, onB.value("id"));
        assertEquals("alice", onB.value("principal"));
        assertEquals(Map.of("cart", "Note(book)"), onB.attributes(), "all attributes, and no reserved ones");
        assertEquals("alice", browser.get(uri(b), "op=whoami").value("user"));
    }

    @Test
    void logoutOnOneNodeOrRevokingTheUserLogsOutEverywhere() {
        Browser alice = new Browser();
        alice.get(uri(a), "op=login&user=alice&password=" + TestRealm.PASSWORD);
        assertEquals("alice", alice.get(uri(b), "op=whoami").value("user"));
        alice.get(uri(b), "op=logout");
        assertEquals("none", alice.get(uri(a), "op=whoami").value("user"));

        Browser bob = new Browser();
        bob.get(uri(b), "op=login&user=bob&password=" + TestRealm.PASSWORD);
        assertEquals("bob", bob.get(uri(a), "op=whoami").value("user"));
        assertEquals(1, a.hbaseManager().revokeAll("bob"));
        assertEquals("none", bob.get(uri(b), "op=whoami").value("user"));
        assertEquals("none", bob.get(uri(b), "op=get").value("id"));
    }

    /** Through the function the manager publishes to the web application, as the demo's button uses it. */
    @Test
    void revokingTheUserFromTheWebappLogsEveryBrowserOutOnEveryNode() {
        Browser laptop = new Browser();
        laptop.get(uri(a), "op=login&user=carol&password=" + TestRealm.PASSWORD);
        Browser phone = new Browser();
        phone.get(uri(b), "op=login&user=carol&password=" + TestRealm.PASSWORD);
        assertEquals("carol", phone.get(uri(a), "op=whoami").value("user"));

        assertEquals("2", new Browser().get(uri(b), "op=revoke-all&user=carol").value("revoked"));

        for (Browser browser : new Browser[] {laptop, phone}) {
            assertEquals("none", browser.get(uri(a), "op=whoami").value("user"));
            assertEquals("none", browser.get(uri(b), "op=get").value("id"));
        }
    }

    private static void useTab(Browser tab, TomcatNode node, String name) {
        for (int i = 0; i < TAB_REQUESTS; i++) {
            Answer put = tab.get(uri(node), "op=put&name=" + name + "-" + i + "&value=" + i);
            assertEquals(200, put.status(), put.body());
            Answer increment = tab.get(uri(node), "op=incr&name=" + name + "-count");
            assertEquals(200, increment.status(), increment.body());
        }
    }

    private static Map<String, Long> events(TomcatNode node) {
        Map<String, Long> counts = new TreeMap<>();
        new Browser().get(uri(node), "op=events").values().forEach((event, count) -> counts.put(event, Long.valueOf(count)));
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
        return node.servlet();
    }
}
