package io.hbasesessions.testing.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import io.hbasesessions.testing.IdleAndActiveSessions;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every adapter promises a web application, over HTTP through the real container and a real HBase:
 * no secret of a login at rest; expiry events for an idle session and none for an active one; a request's
 * session saved before any byte of its response is committed, looked up once however often it is asked
 * for, answered with the store's failure response when it cannot be saved; a fresh id after an
 * invalidation; only the container's own route form opens a session. An adapter runs it by a subclass that
 * starts its container ({@link #startNode}); adding an adapter means writing that subclass.
 */
@ExtendWith(HBaseExtension.class)
public abstract class AbstractAdapterContractTest {

    /** The test WAR's parameter that holds a request after its answer until the client releases it (Gates). */
    private static final String HOLD_AFTER_COMMIT = "holdAfterCommit";

    /** The user every node's realm knows, with {@link #PASSWORD} and the role {@code user}. */
    public static final String USER = "alice";
    public static final String PASSWORD = "pw-unique-7Hq2Zx";
    /** The route (jvmRoute, worker name) of the node a case starts: session ids end in {@code .r1}. */
    public static final String ROUTE = "r1";
    /** The early lookup header of the test WAR's {@code EarlyLookupListener}. */
    private static final String EARLY_LOOKUP_HEADER = "X-Early-Session-Lookup";
    private static final int MAX_SESSION_BYTES = 4096;

    private Map<String, String> settings;

    /**
     * Starts the adapter's container serving the test WAR (its {@code /session} servlet at
     * {@link AdapterNode#servlet()}) with a realm that knows {@link #USER}, session ids routed to
     * {@code route}, and the adapter configured with {@code settings} by their configuration names.
     */
    protected abstract AdapterNode startNode(String route, Map<String, String> settings);

    /** What {@code HttpSession.getId()} answers for the session whose cookie is {@code id.route} on this container. */
    protected abstract String idTheApplicationSees(String id, String route);

    @BeforeEach
    void tablesOfThisClass(EmbeddedHBase hbase, TestNamespace namespace) {
        settings = new LinkedHashMap<>();
        settings.put("zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        settings.put("table", namespace.table("sessions"));
        settings.put("indexTable", namespace.table("user_sessions"));
        settings.put("regions", "1");
        settings.put("changesTable", namespace.table("session_changes"));
    }

    /** The settings of this class's tables with {@code extra} name/value pairs added. */
    protected Map<String, String> settings(String... extra) {
        Map<String, String> changed = new LinkedHashMap<>(settings);
        for (int i = 0; i < extra.length; i += 2) {
            changed.put(extra[i], extra[i + 1]);
        }
        return changed;
    }

    private AdapterNode start(String... extra) {
        return startNode(ROUTE, settings(extra));
    }

    // No secrets at rest (issue #11 item 4)

    @Test
    void aLoginStoresNoPassword(TestNamespace namespace, Configuration client) {
        try (AdapterNode node = start()) {
            logIn(node);
        }
        assertNoPasswordStored(namespace, client);
    }

    /** Logs {@link #USER} in through the container's realm and puts a value beside the login. */
    protected static void logIn(AdapterNode node) {
        Browser browser = new Browser();
        browser.get(node.servlet(), "op=login&user=" + USER + "&password=" + PASSWORD).expect(200);
        browser.get(node.servlet(), "op=put&name=cart&value=book").expect(200);
        assertEquals(USER, browser.get(node.servlet(), "op=whoami").expect(200).value("user"));
    }

    /** The session and its login are stored; no cell holds the password, in any encoding a serializer could write. */
    protected static void assertNoPasswordStored(TestNamespace namespace, Configuration client) {
        assertTrue(namespace.storesBytes(client, "boo".getBytes(StandardCharsets.UTF_8)), "the session is stored");
        assertTrue(namespace.storesBytes(client, USER.getBytes(StandardCharsets.UTF_8)), "the login is stored");
        // All but the last character: Kryo marks the end of an ASCII string in its last byte's high bit.
        String password = PASSWORD.substring(0, PASSWORD.length() - 1);
        for (Charset encoding : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
            assertFalse(namespace.storesBytes(client, password.getBytes(encoding)),
                    "a cell holds the password in " + encoding);
        }
    }

    // Expiry events (the fleet-wide rules are ExpiryEventsIT's)

    /** The idle session gets its sessionDestroyed and valueUnbound from the adapter's sweep; the active one none. */
    @Test
    void anIdleSessionIsDestroyedWithItsEventsAndAnActiveOneIsNot(TestNamespace namespace) throws InterruptedException {
        try (AdapterNode node = start("expiryEvents", "true", "expiryEventDelaySeconds", "2",
                "expiryTable", namespace.table("session_expiry"), "touchIntervalSeconds", "0")) {
            IdleAndActiveSessions.Outcome outcome = IdleAndActiveSessions.run(node.servlet(), Duration.ofSeconds(9));

            assertEquals(1, outcome.destroyed(), "exactly the idle session was destroyed");
            assertEquals(1, outcome.unbound(), "its listening attribute was unbound");
            assertEquals("none", outcome.idleSessionAfterwards());
            assertEquals("ListeningNote(active)", outcome.activeNoteAfterwards());
        }
    }

    @Test
    void writesWithinOneBucketAddNoEntryToTheExpiryIndex(TestNamespace namespace) {
        try (AdapterNode node = start("expiryEvents", "true", "expiryTable", namespace.table("session_expiry"))) {
            Browser browser = new Browser();
            browser.get(node.servlet(), "op=put&name=note&value=0").expect(200);
            for (int i = 1; i <= 40; i++) {
                browser.get(node.servlet(), "op=put&name=note&value=" + i).expect(200);
                browser.get(node.servlet(), "op=get").expect(200);
            }
            StoreCounters counters = node.counters();

            assertEquals(41, counters.get(StoreCounter.CREATES) + counters.get(StoreCounter.FULL_WRITES));
            // The default 60 s event delay makes 30 s buckets: 40 writes within seconds cross at most one boundary.
            long entries = counters.get(StoreCounter.EXPIRY_ENTRIES);
            assertTrue(entries >= 1 && entries <= 2, entries + " expiry index entries for one session's 41 writes");
        }
    }

    // One request's session

    /**
     * The servlet sets a value, commits its response one way or another, then keeps working for a while
     * before it returns (after {@code complete()}, for async). The client asks again the moment the
     * response's headers arrive: the value must already be stored. Servlet 6.1's redirect form is tried
     * where the container has 6.1 (Tomcat 11); elsewhere it is the classic redirect. The async request's
     * work after {@code complete()} waits at a gate until the client has read the session, and the release
     * says it was still waiting: the save came at {@code complete()}, not at the end of the request.
     */
    @ParameterizedTest
    @ValueSource(strings = {"flush", "large", "content-length", "redirect", "redirect-6.1", "error", "async"})
    void theSessionIsSavedBeforeTheResponseIsCommitted(String style) throws Exception {
        try (AdapterNode node = start()) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=first");
            String cookie = browser.cookie();
            HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
            for (int round = 0; round < 5; round++) {
                String hold = style.equals("async") ? "&" + HOLD_AFTER_COMMIT + "=async-" + round + "-" + System.nanoTime() : "";
                HttpResponse<InputStream> committed = client.send(HttpRequest.newBuilder(
                        URI.create(scope + "?op=commit&style=" + style + "&value=v" + round + hold))
                        .header("Cookie", "JSESSIONID=" + cookie).build(), HttpResponse.BodyHandlers.ofInputStream());
                assertTrue(committed.statusCode() < 500, style + " answered " + committed.statusCode());
                assertEquals("v" + round, Browser.withCookie(cookie).get(scope, "op=read").body(),
                        style + ": the change was not stored when the headers arrived");
                if (!hold.isEmpty()) {
                    // A client of its own: the held request's keep-alive connection is busy until it ends.
                    assertEquals("true", new Browser().get(scope.resolve("gate"), "release=" + hold.substring(hold.indexOf('=') + 1))
                            .value("held"), "the async request's work after complete() was over before the session was read");
                }
                committed.body().readAllBytes();
            }
        }
    }

    /** Tomcat runs request listeners before the manager's valve; Jetty after its session handler. */
    @Test
    void aSessionLookedUpByARequestListenerBeforeTheValveIsStillSaved() throws Exception {
        try (AdapterNode node = start()) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=0");
            for (int i = 1; i <= 4; i++) {
                send(URI.create(scope + "?op=put&value=" + i), "JSESSIONID=" + browser.cookie(), EARLY_LOOKUP_HEADER);
                assertEquals(String.valueOf(i), browser.get(scope, "op=read").body());
            }
        }
    }

    /** The container checks every session cookie of a request; 150 copies of one still load it once. */
    @Test
    void aRequestWith150CopiesOfItsCookieLoadsItsSessionOnce() throws Exception {
        try (AdapterNode node = start()) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=x");
            String cookies = String.join("; ", Collections.nCopies(150, "JSESSIONID=" + browser.cookie()));
            long loadsBefore = node.counters().get(StoreCounter.LOADS);

            assertEquals("x", send(URI.create(scope + "?op=read"), cookies, "X-Nothing"));
            assertEquals(1, node.counters().get(StoreCounter.LOADS) - loadsBefore);
        }
    }

    /**
     * Issue #31, {@code stickySessions}: requests whose id carries this node's route are answered from its copy (no
     * HBase read), and a session whose id carries another node's route (its node failed) is read from HBase and
     * comes back with this node's route, so that a balancer keeps the user here.
     */
    @Test
    void withStickySessionsRequestsRoutedHereReadTheCopyAndAMovedSessionGetsThisNodesRoute() throws Exception {
        try (AdapterNode node = start("stickySessions", "true")) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=sticky");
            assertTrue(browser.cookie().endsWith("." + ROUTE), browser.cookie());
            long hits = node.counters().get(StoreCounter.STICKY_HITS);
            long loads = node.counters().get(StoreCounter.LOADS);
            for (int i = 0; i < 10; i++) {
                assertEquals("sticky", browser.get(scope, "op=read").body());
            }
            long fromCopies = node.counters().get(StoreCounter.STICKY_HITS) - hits;
            assertEquals(10, node.counters().get(StoreCounter.LOADS) - loads);
            assertTrue(fromCopies >= 9, "10 requests routed to the session's home, " + fromCopies + " answered from its copy");

            Browser movedHere = Browser.withCookie(browser.sessionId() + ".r2");
            assertEquals("sticky", movedHere.get(scope, "op=read").body());
            assertEquals(browser.sessionId() + "." + ROUTE, movedHere.cookie(), "the client got this node's route");
        }
    }

    /** Issue #10 item 5: after invalidate() the next session of the request gets a fresh id, never the old one. */
    @Test
    void aSessionCreatedAfterAnInvalidationHasAFreshId() {
        try (AdapterNode node = start()) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=before");
            String before = browser.cookie();

            Answer renewed = browser.get(scope, "op=invalidate-and-create");
            assertNotEquals(SessionIds.withoutRoute(before), SessionIds.withoutRoute(renewed.body()));
            assertEquals(SessionIds.withoutRoute(renewed.body()), browser.sessionId());
            assertEquals("null", Browser.withCookie(before).get(scope, "op=read").body(), "the old session is gone");
        }
    }

    /** Issue #10 item 8: only the last '.' segment is a route; the session reports its id as this node names it. */
    @Test
    void onlyTheContainersOwnRouteFormOpensASession() {
        try (AdapterNode node = start()) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=mine");
            String id = browser.sessionId();

            assertEquals("mine", Browser.withCookie(id + ".othernode").get(scope, "op=read").body());
            assertEquals(idTheApplicationSees(id, ROUTE),
                    Browser.withCookie(id + ".othernode").get(scope, "op=id").body());
            for (String forged : new String[] {id + ".a.b", id + "." + id + ".x", id.substring(1) + "." + ROUTE,
                    id + "x." + ROUTE}) {
                assertEquals("null", Browser.withCookie(forged).get(scope, "op=read").body(), forged);
            }
        }
    }

    @Test
    void repeatedLookupsInOneRequestTakeOnePessimisticLease() {
        try (AdapterNode node = start("lockingMode", "pessimistic", "operationTimeoutMillis", "3000")) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=done");
            for (int i = 0; i < 5; i++) {
                Answer answer = browser.get(scope, "op=look-twice");
                assertEquals("valid=true value=done", answer.body());
                assertTrue(answer.elapsed().compareTo(Duration.ofSeconds(1)) < 0, "answered in " + answer.elapsed());
            }
        }
    }

    /** A session that cannot be saved (here: too large) is a 500 without any detail, and the stored one stays. */
    @Test
    void aSaveThatFailsAnswersTheFailureInsteadOfTheApplicationsAnswer() {
        try (AdapterNode node = start("maxSessionBytes", Integer.toString(MAX_SESSION_BYTES))) {
            URI scope = scope(node);
            Browser browser = new Browser();
            browser.get(scope, "op=put&value=kept");

            Answer tooLarge = browser.get(scope, "op=too-large&bytes=" + 2 * MAX_SESSION_BYTES);
            assertEquals(500, tooLarge.status(), tooLarge.body());
            assertFalse(tooLarge.body().contains("written anyway"), tooLarge.body());
            assertFalse(tooLarge.body().contains("Exception"), tooLarge.body());
            assertEquals("kept", browser.get(scope, "op=read").body());
        }
    }

    /** The test WAR's {@code /scope} servlet: plain string values, one operation per request. */
    private static URI scope(AdapterNode node) {
        return node.servlet().resolve("scope");
    }

    /** A GET with the given Cookie header and one marker header, answered with its body. */
    private static String send(URI target, String cookieHeader, String markerHeader) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(target).header("Cookie", cookieHeader)
                .header(markerHeader, "1").build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
