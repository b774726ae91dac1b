package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProgram;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #5, case 7: one session shared by a Tomcat node and a Jetty node. Each node is a JVM of its
 * own, started by node-launcher ({@link NodeProcess}), serving the same test WAR at the same context
 * path, non-sticky (Tomcat's HBaseSessionManager keeps nothing between requests; the Jetty node's cache
 * evicts on session exit and flushes on response commit), with one explicit key scope and this test
 * class's own tables in one real HBase. A {@link Browser} sends one JSESSIONID cookie to both, as a
 * browser does for one host; Jetty's {@code .node0} suffix travels with it to Tomcat.
 *
 * <p>The attributes are instances of the WAR's classes ({@code Note}, {@code NoteList}), which exist
 * only inside the WAR: the nodes read each other's writes with their own webapp class loaders.
 *
 * <p>The nodes' output (Tomcat's and Jetty's logs, HBase client included) is in
 * {@code target/nodes/cross-container/}.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossContainerSessionsIT {

    /** Both nodes set it explicitly; a container's default (its context path) would also match, by design. */
    private static final String KEY_SCOPE = "cross-container";
    private static final int CONCURRENT_ADDS = 100;

    private final TestNodes nodes = new TestNodes("cross-container");
    private Node tomcat;
    private Node jetty;
    private StoredSessions stored;

    @BeforeAll
    void startBothNodes(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        Map<String, String> settings = TestNodes.storeSettings(hbase, namespace, KEY_SCOPE);
        NodeProcess tomcatNode = nodes.start(NodeProgram.TOMCAT_10_1, "tomcat", settings);
        NodeProcess jettyNode = nodes.start(NodeProgram.JETTY_12_1, "jetty", settings);
        nodes.awaitReady();
        assertTrue(tomcatNode.serverInfo().startsWith("Apache Tomcat/"), tomcatNode.serverInfo());
        assertTrue(jettyNode.serverInfo().startsWith("jetty/"), jettyNode.serverInfo());
        tomcat = new Node("Tomcat", tomcatNode.url().resolve("session"));
        jetty = new Node("Jetty", jettyNode.url().resolve("session"));
        stored = TestNodes.inspector(settings);
    }

    @AfterAll
    void stopBothNodes() {
        nodes.stopAll();
        if (stored != null) {
            stored.close();
        }
    }

    @Test
    void aSessionCreatedOnTomcatIsChangedOnJettyAndReadBackOnTomcat() {
        Browser browser = new Browser();
        Map<String, String> created = get(browser, tomcat, "op=put&name=note&value=from-tomcat");
        get(browser, tomcat, "op=append&name=notes&value=t1");
        get(browser, tomcat, "op=append&name=notes&value=t2"); // in place: no setAttribute
        get(browser, tomcat, "op=incr&name=count");
        get(browser, tomcat, "op=put&name=doomed&value=x");
        String id = Browser.withoutRoute(created.get("id"));
        assertTrue(stored.exists(id), "Tomcat did not store the session in the test's table under the key scope");

        Map<String, String> onJetty = get(browser, jetty, "op=get");
        assertEquals(id, Browser.withoutRoute(onJetty.get("id")), "Jetty serves another session: " + onJetty);
        assertEquals("false", onJetty.get("new"), onJetty.toString());
        assertEquals("Note(from-tomcat)", onJetty.get("attr.note"), onJetty.toString());
        assertEquals("[Note(t1), Note(t2)]", onJetty.get("attr.notes"), onJetty.toString());
        assertEquals("1", onJetty.get("attr.count"), onJetty.toString());
        assertEquals("Note(x)", onJetty.get("attr.doomed"), onJetty.toString());
        assertEquals(created.get("creation"), onJetty.get("creation"), "creation time");
        assertEquals(created.get("maxInactive"), onJetty.get("maxInactive"), "max inactive interval");

        get(browser, jetty, "op=append&name=notes&value=j1"); // in place, on Jetty
        get(browser, jetty, "op=put&name=note&value=from-jetty");
        get(browser, jetty, "op=put&name=added&value=on-jetty");
        get(browser, jetty, "op=incr&name=count");
        get(browser, jetty, "op=remove&name=doomed");

        Map<String, String> onTomcat = get(browser, tomcat, "op=get");
        assertEquals(id, Browser.withoutRoute(onTomcat.get("id")), "Tomcat serves another session: " + onTomcat);
        assertEquals(Map.of("attr.note", "Note(from-jetty)", "attr.notes", "[Note(t1), Note(t2), Note(j1)]",
                "attr.added", "Note(on-jetty)", "attr.count", "2"), attributes(onTomcat));
        assertEquals(created.get("creation"), onTomcat.get("creation"), "creation time");
    }

    @Test
    void aSessionCreatedOnJettyIsChangedOnTomcatAndReadBackOnJetty() {
        Browser browser = new Browser();
        Map<String, String> created = get(browser, jetty, "op=put&name=note&value=from-jetty");
        assertTrue(browser.cookie().endsWith(".node0"), "Jetty's cookie: " + browser.cookie());
        get(browser, jetty, "op=append&name=notes&value=j1");
        get(browser, jetty, "op=append&name=notes&value=j2"); // in place: no setAttribute
        get(browser, jetty, "op=incr&name=count");
        get(browser, jetty, "op=put&name=doomed&value=x");
        String id = Browser.withoutRoute(created.get("id"));
        assertTrue(stored.exists(id), "Jetty did not store the session in the test's table under the key scope");

        Map<String, String> onTomcat = get(browser, tomcat, "op=get"); // the cookie still ends with .node0
        assertEquals(id, Browser.withoutRoute(onTomcat.get("id")), "Tomcat serves another session: " + onTomcat);
        assertEquals("false", onTomcat.get("new"), onTomcat.toString());
        assertEquals(Map.of("attr.note", "Note(from-jetty)", "attr.notes", "[Note(j1), Note(j2)]",
                "attr.count", "1", "attr.doomed", "Note(x)"), attributes(onTomcat));
        assertEquals(created.get("creation"), onTomcat.get("creation"), "creation time");
        assertEquals(created.get("maxInactive"), onTomcat.get("maxInactive"), "max inactive interval");

        get(browser, tomcat, "op=append&name=notes&value=t1"); // in place, on Tomcat
        get(browser, tomcat, "op=put&name=note&value=from-tomcat");
        get(browser, tomcat, "op=put&name=added&value=on-tomcat");
        get(browser, tomcat, "op=incr&name=count");
        get(browser, tomcat, "op=remove&name=doomed");

        Map<String, String> onJetty = get(browser, jetty, "op=get");
        assertEquals(id, Browser.withoutRoute(onJetty.get("id")), "Jetty serves another session: " + onJetty);
        assertEquals(Map.of("attr.note", "Note(from-tomcat)", "attr.notes", "[Note(j1), Note(j2), Note(t1)]",
                "attr.added", "Note(on-tomcat)", "attr.count", "2"), attributes(onJetty));
        assertEquals(created.get("creation"), onJetty.get("creation"), "creation time");
    }

    @Test
    void aSessionInvalidatedOnJettyIsGoneOnTomcat() {
        assertInvalidationIsSeenAcross(tomcat, jetty);
    }

    @Test
    void aSessionInvalidatedOnTomcatIsGoneOnJetty() {
        assertInvalidationIsSeenAcross(jetty, tomcat);
    }

    @Test
    void anIdChangedOnJettyMovesTheSessionForTomcat() {
        assertIdChangeIsSeenAcross(tomcat, jetty);
    }

    @Test
    void anIdChangedOnTomcatMovesTheSessionForJetty() {
        assertIdChangeIsSeenAcross(jetty, tomcat);
    }

    /**
     * Two tabs of one browser on one session, one tab on Tomcat and one on Jetty, each adding attributes
     * of its own at the same time: every write conflicts with the other node's sooner or later, and the
     * stores' optimistic retries must keep both.
     */
    @Test
    void concurrentAdditionsOnTomcatAndJettyAreAllKept() throws Exception {
        Browser browser = new Browser();
        String id = Browser.withoutRoute(get(browser, tomcat, "op=create").get("id"));
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService tabs = Executors.newFixedThreadPool(2);
        try {
            Future<?> onTomcat = tabs.submit(() -> addAttributes(browser, tomcat, "tomcat", start));
            Future<?> onJetty = tabs.submit(() -> addAttributes(browser, jetty, "jetty", start));
            onTomcat.get(60, TimeUnit.SECONDS);
            onJetty.get(60, TimeUnit.SECONDS);
        } finally {
            tabs.shutdownNow();
        }

        Map<String, String> expected = new TreeMap<>();
        for (String prefix : List.of("tomcat", "jetty")) {
            IntStream.range(0, CONCURRENT_ADDS).forEach(i -> expected.put("attr." + prefix + i, "Note(" + i + ")"));
        }
        for (Node node : List.of(tomcat, jetty)) {
            Map<String, String> seen = get(browser, node, "op=get");
            assertEquals(id, Browser.withoutRoute(seen.get("id")), "another session on " + node + ": " + seen);
            Map<String, String> attributes = attributes(seen);
            List<String> lost = expected.keySet().stream().filter(name -> !attributes.containsKey(name)).toList();
            assertEquals(List.of(), lost, "attributes lost, as " + node + " reads the session");
            assertEquals(expected, new TreeMap<>(attributes), "as " + node + " reads the session");
        }
    }

    private static Void addAttributes(Browser browser, Node node, String prefix, CyclicBarrier start) throws Exception {
        start.await(30, TimeUnit.SECONDS);
        for (int i = 0; i < CONCURRENT_ADDS; i++) {
            Map<String, String> answer = get(browser, node, "op=put&name=" + prefix + i + "&value=" + i);
            assertEquals("Note(" + i + ")", answer.get("attr." + prefix + i), node + " did not keep its own write: " + answer);
        }
        return null;
    }

    /** A session created on {@code creator} and invalidated on {@code other} is gone for both, and from HBase. */
    /**
     * A user logged in on one container stays revocable after the session is used on the other, which
     * does not know that login: "log out everywhere" from either container ends the session.
     */
    @Test
    void aLoginOnJettySurvivesARequestOnTomcatForLogOutEverywhere() {
        assertLoginStaysRevocableAcross(jetty, tomcat, "alice");
    }

    @Test
    void aLoginOnTomcatSurvivesARequestOnJettyForLogOutEverywhere() {
        assertLoginStaysRevocableAcross(tomcat, jetty, "bob");
    }

    private void assertLoginStaysRevocableAcross(Node loginNode, Node other, String user) {
        Browser browser = new Browser();
        get(browser, loginNode, "op=put&name=cart&value=book");
        get(browser, loginNode, "op=login&user=" + user + "&password=demo");
        assertEquals(user, get(browser, loginNode, "op=whoami").get("user"));
        get(browser, other, "op=put&name=seen&value=" + other);

        assertEquals("1", get(new Browser(), other, "op=revoke-all&user=" + user).get("revoked"),
                "the request on " + other + " dropped the user from the index");
        assertEquals("none", get(browser, loginNode, "op=get").get("id"), "the session survived the revocation");
        assertEquals(List.of(), stored.findByUser(user));
    }

    private void assertInvalidationIsSeenAcross(Node creator, Node other) {
        Browser browser = new Browser();
        String id = Browser.withoutRoute(get(browser, creator, "op=put&name=note&value=doomed").get("id"));
        get(browser, creator, "op=append&name=notes&value=n1");
        assertEquals("[Note(n1)]", get(browser, other, "op=get").get("attr.notes"), "the session is not shared");

        assertEquals("true", get(browser, other, "op=invalidate").get("invalidated"));

        assertFalse(stored.exists(id), "the invalidated session is still stored");
        assertEquals("none", get(browser, creator, "op=get").get("id"), creator + " still serves the invalidated session");
        assertEquals("none", get(browser, other, "op=get").get("id"), other + " still serves the invalidated session");
        assertEquals("false", get(browser, creator, "op=invalidate").get("invalidated"), "invalidated twice");
    }

    /**
     * A session created on {@code creator} whose id {@code other} changes: {@code creator} finds it under
     * the new id, with its attributes, and nothing under the old one, in HBase neither.
     */
    private void assertIdChangeIsSeenAcross(Node creator, Node other) {
        Browser browser = new Browser();
        String oldId = Browser.withoutRoute(get(browser, creator, "op=put&name=note&value=kept").get("id"));
        get(browser, creator, "op=append&name=notes&value=n1");
        String oldCookie = browser.cookie();

        Map<String, String> changed = get(browser, other, "op=change-id");
        String newId = Browser.withoutRoute(changed.get("newId"));
        assertEquals(oldId, Browser.withoutRoute(changed.get("oldId")), "changed another session: " + changed);
        assertNotEquals(oldId, newId);
        assertNotEquals(oldCookie, browser.cookie(), other + " did not send the new id's cookie");
        assertEquals(newId, Browser.withoutRoute(browser.cookie()), "the cookie names another id");

        assertTrue(stored.exists(newId), "the session is not stored under its new id");
        assertFalse(stored.exists(oldId), "the session is still stored under its old id");
        Map<String, String> moved = get(browser, creator, "op=get");
        assertEquals(newId, Browser.withoutRoute(moved.get("id")), creator + " does not follow the id change: " + moved);
        assertEquals(Map.of("attr.note", "Note(kept)", "attr.notes", "[Note(n1)]"), attributes(moved));
        for (Node node : List.of(creator, other)) {
            assertEquals("none", get(Browser.withCookie(oldCookie), node, "op=get").get("id"),
                    node + " still serves the session under its old id");
        }
    }

    /** {@code GET <servlet>?<query>} on {@code node}: the test WAR's {@code key=value} lines; fails the test unless 200. */
    private static Map<String, String> get(Browser browser, Node node, String query) {
        return browser.get(node.servlet(), query).expect(200).values();
    }

    /** The session's attributes as the WAR printed them ({@code attr.<name>} to {@code toString()}). */
    private static Map<String, String> attributes(Map<String, String> answer) {
        assertNotNull(answer.get("id"), answer.toString());
        assertNotEquals("none", answer.get("id"), "no session: " + answer);
        return answer.entrySet().stream().filter(entry -> entry.getKey().startsWith("attr."))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
