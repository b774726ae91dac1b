package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.SessionIds;
import io.hbasesessions.testing.Browser;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue #31: {@code stickySessions} on a pair of one container (routes of their own, {@code stickyStalenessMillis}
 * at its default) behind a real load balancer that routes by the session id's route, Jetty's {@link StickyBalancer}:
 * sticky traffic is answered from the homes' copies, a stopped node's users go on on the other node and come back
 * without ever being shown an older copy, and "log out everywhere" on either node ends the user's sessions on every
 * node within {@code stickyStalenessMillis}. The inherited conformance suite runs on the same pair, requests going
 * to both nodes directly, without the balancer: traffic that is not sticky stays correct.
 */
abstract class AbstractStickyTwoNodeSessionsIT extends AbstractTwoNodeSessionsIT {

    static final int USERS = 4;
    static final int STICKY_REQUESTS = 200;
    /** Every fourth request of a user writes (an increment), the others read. */
    static final int WRITE_EVERY = 4;
    static final double MAX_HBASE_READS_PER_REQUEST = 0.05;
    /**
     * The non-sticky pairs prove with 200 writes per response style that each is saved before its answer; here each
     * write also moves the session's home (announced, and the other node's copy dropped), which 50 prove as well.
     */
    static final int STICKY_ALTERNATING_REQUESTS = 50;

    private StickyBalancer balancer;

    @BeforeAll
    void startTheBalancer() throws Exception {
        balancer = StickyBalancer.start(List.of(a, b));
    }

    @AfterAll
    void stopTheBalancer() throws Exception {
        balancer.close();
    }

    @Override
    int alternatingRequests() {
        return STICKY_ALTERNATING_REQUESTS;
    }

    /**
     * {@value #STICKY_REQUESTS} requests of {@value #USERS} users through the balancer, a quarter of them writes:
     * each is answered by its session's home, from its copy, and what it wrote is read back. HBase reads per request,
     * {@code (loads - stickyHits) / requests} over both nodes, stay under {@value #MAX_HBASE_READS_PER_REQUEST}, and the
     * homes' own writes announce nothing.
     */
    @Test
    void stickyTrafficIsAnsweredFromTheHomesCopies() {
        List<Browser> users = new ArrayList<>();
        for (int i = 0; i < USERS; i++) {
            Browser user = new Browser();
            viaBalancer(user, "op=create");
            users.add(user);
        }
        Map<Browser, String> routes = users.stream().collect(Collectors.toMap(user -> user,
                AbstractStickyTwoNodeSessionsIT::route));
        assertEquals(Set.of(a.route(), b.route()), Set.copyOf(routes.values()), "the homes of the new sessions");
        Counters beforeA = a.counters();
        Counters beforeB = b.counters();
        Map<Browser, Integer> counts = new HashMap<>();
        for (int i = 0; i < STICKY_REQUESTS; i++) {
            Browser user = users.get(i % USERS);
            int count = counts.getOrDefault(user, 0);
            boolean write = (i / USERS) % WRITE_EVERY == 0;
            Map<String, String> answer = viaBalancer(user, write ? "op=incr&name=count" : "op=get");
            count += write ? 1 : 0;
            counts.put(user, count);
            assertEquals(String.valueOf(count), answer.get("attr.count"), "request " + i);
            assertEquals(routes.get(user), route(user), "the session moved at request " + i);
        }
        Map<String, Long> onA = a.counters().since(beforeA);
        Map<String, Long> onB = b.counters().since(beforeB);
        long loads = onA.get("loads") + onB.get("loads");
        long hbaseReads = loads - onA.get("stickyHits") - onB.get("stickyHits");
        double hbaseReadsPerRequest = (double) hbaseReads / STICKY_REQUESTS;
        Figures.print("sticky traffic " + pair() + " behind BalancerServlet", String.format(Locale.ROOT,
                "%d requests of %d users, loads=%d, HBase reads per request %.3f; counter deltas on %s %s, on %s %s",
                STICKY_REQUESTS, USERS, loads, hbaseReadsPerRequest, a, Counters.nonZero(onA), b, Counters.nonZero(onB)));
        assertTrue(onA.get("stickyHits") > 0 && onB.get("stickyHits") > 0, "requests answered from copies: "
                + onA.get("stickyHits") + " on " + a + ", " + onB.get("stickyHits") + " on " + b);
        assertTrue(hbaseReadsPerRequest <= MAX_HBASE_READS_PER_REQUEST, "HBase reads per request: " + hbaseReadsPerRequest);
        assertEquals(0, onA.get("changesAnnounced") + onB.get("changesAnnounced"), "changes announced by the homes' "
                + "own writes");
    }

    /**
     * A node is killed: its users go on through the balancer on the other node, their sessions and logins intact,
     * and their ids get that node's route. The node comes back with its route: a tab still holding the old route is
     * shown what was written on the other node. Then the other node is taken out of the balancer (kept running, its
     * copies held): everyone comes back to the restarted node, and once it is back in, neither the users' own
     * requests nor, {@code stickyStalenessMillis} after their last write, a tab still holding its route are shown
     * its older copies.
     */
    @Test
    void aStoppedNodesUsersGoOnOnTheOtherAndAreNeverShownAnOlderCopy() throws Exception {
        Browser alice = loggedInUserAtHomeOn(a, "alice");
        Browser bob = loggedInUserAtHomeOn(b, "bob");
        String aliceOnA = alice.cookie();
        try {
            a.process().kill();
            balancer.routeTo(List.of(b));
            Counters beforeFailover = b.counters();
            assertSessionOf(alice, "alice", "book-alice", "after " + a + " was killed");
            assertEquals(b.route(), route(alice), "the route of alice's id after failing over to " + b);
            viaBalancer(alice, "op=put&name=cart&value=written-on-" + b);
            assertSessionOf(alice, "alice", "written-on-" + b, "on " + b);
            Counters afterFailover = b.counters();
            assertTrue(afterFailover.get("stickyHits") > beforeFailover.get("stickyHits"), b + " answered no request of "
                    + "the session it took over from its copy: " + Counters.nonZero(afterFailover.since(beforeFailover)));

            a.process().restart(TestNodes.START_TIMEOUT);
            balancer.routeTo(List.of(a, b));
            assertSessionOf(alice, "alice", "written-on-" + b, "once " + a + " was back");
            assertEquals(b.route(), route(alice), "alice stays where her session went");
            Counters restarted = a.counters();
            assertSessionOf(Browser.withCookie(aliceOnA), "alice", "written-on-" + b, "from a tab with the route of the "
                    + "restarted " + a);
            assertEquals(1, a.counters().get("loads") - restarted.get("loads"), "the tab's request on " + a);

            balancer.routeTo(List.of(a));
            Counters drained = b.counters();
            Map<String, Browser> users = new TreeMap<>(Map.of("alice", alice, "bob", bob));
            Map<String, String> tabsOnB = new TreeMap<>();
            users.forEach((name, user) -> {
                tabsOnB.put(name, user.cookie());
                assertSessionOf(user, name, name.equals("alice") ? "written-on-" + b : "book-bob", "failing back to " + a);
                assertEquals(a.route(), route(user), "the route of " + name + "'s id after failing back to " + a);
                viaBalancer(user, "op=put&name=cart&value=written-on-" + a);
            });
            Instant lastWrite = Instant.now();
            balancer.routeTo(List.of(a, b));
            users.forEach((name, user) -> assertSessionOf(user, name, "written-on-" + a, "with " + b + " back"));
            sleepUntil(lastWrite.plus(copiesBound));
            Counters beforeOldTabs = b.counters();
            tabsOnB.forEach((name, cookie) -> {
                assertEquals(b.route(), SessionIds.routeOf(cookie));
                assertSessionOf(Browser.withCookie(cookie), name, "written-on-" + a, "from a tab with " + b + "'s route, "
                        + copiesBound.toMillis() + " ms after the last write on " + a);
            });
            Counters afterOldTabs = b.counters();
            Figures.print("failover and failback " + pair() + " behind BalancerServlet", b + " while drained and after: "
                    + Counters.nonZero(afterOldTabs.since(drained)));
            assertEquals(0, afterOldTabs.get("stickyHits") - beforeOldTabs.get("stickyHits"), b + " answered an old tab "
                    + "from a copy");
            assertTrue(afterOldTabs.get("stickyInvalidations") - drained.get("stickyInvalidations") >= users.size(), b
                    + " did not drop its copies of the sessions that went to " + a + ": "
                    + Counters.nonZero(afterOldTabs.since(drained)));
        } finally {
            if (!a.process().isAlive()) {
                a.process().restart(TestNodes.START_TIMEOUT);
            }
            balancer.routeTo(List.of(a, b));
        }
    }

    /**
     * "Log out everywhere" through either node ends the user's sessions at home on both: a request through the balancer
     * that begins {@code stickyStalenessMillis} after the revocation finds no session, on the revoking node and on the
     * other, which drops its copy.
     */
    @Test
    void logOutEverywhereOnEitherNodeEndsTheSessionsOnEveryNodeWithinTheBound() throws Exception {
        for (Node revoker : List.of(a, b)) {
            String user = "everywhere-" + UUID.randomUUID();
            List<Browser> browsers = new ArrayList<>();
            for (Node home : List.of(a, b)) {
                Browser browser = userAtHomeOn(home);
                viaBalancer(browser, "op=app-login&user=" + user);
                browsers.add(browser);
            }
            Node other = other(revoker);
            Counters beforeReads = other.counters();
            for (Browser browser : browsers) {
                assertEquals(user, viaBalancer(browser, "op=whoami").get("appUser"));
            }
            Counters beforeRevocation = other.counters();
            assertTrue(beforeRevocation.get("stickyHits") > beforeReads.get("stickyHits"), other + " holds no copy to drop");

            String revoked = new Browser().get(revoker.session(), "op=revoke-all&user=" + user).expect(200).value("revoked");
            assertEquals("2", revoked, "sessions revoked on " + revoker);
            sleepUntil(Instant.now().plus(copiesBound));
            for (Browser browser : browsers) {
                assertEquals("none", viaBalancer(browser, "op=get").get("id"), "revoked on " + revoker + " "
                        + copiesBound.toMillis() + " ms ago, the session routed to " + route(browser) + " is served");
            }
            Counters after = other.counters();
            Figures.print("log out everywhere on " + revoker + " behind BalancerServlet", other + "'s counters: "
                    + Counters.nonZero(after.since(beforeRevocation)));
            assertTrue(after.get("stickyInvalidations") > beforeRevocation.get("stickyInvalidations"), other
                    + " never dropped its copy of the revoked session");
        }
    }

    /**
     * A session that moves its home to a node in a lookup made before the container's own session handling (a
     * {@code ServletRequestListener}; Tomcat asks its manager before the valve that knows the request) gets that node's
     * route all the same. With the old route, the client's next request would go back to the old home and, within
     * {@code stickyStalenessMillis}, be answered from its older copy: an increment made meanwhile would be lost.
     */
    @Test
    void aSessionThatMovesInARequestListenersLookupGetsTheNewHomesRoute() {
        for (Node home : List.of(a, b)) {
            Node next = other(home);
            Browser browser = new Browser();
            get(browser, home, "op=incr&name=count");
            assertEquals(home.route(), route(browser));
            Map<String, String> answer = browser.get(next.session(), "op=incr&name=count",
                    Map.of(EARLY_LOOKUP_HEADER, "true")).expect(200).values();
            assertEquals("found", answer.get("earlyLookup"), "the listener on " + next + " found no session");
            assertEquals(next.route(), route(browser), next + " took the session's home, its id kept the old route");
            assertEquals("3", get(browser, home, "op=incr&name=count").get("attr.count"), "the increment on " + next
                    + ", read on " + home);
        }
    }

    // ---------------------------------------------------------------- helpers

    /** {@code GET /session?<query>} through the balancer: the WAR's {@code key=value} lines; fails unless 200. */
    Map<String, String> viaBalancer(Browser browser, String query) {
        return browser.get(balancer.session(), query).expect(200).values();
    }

    /** A new visitor whose session the balancer gave to {@code home} (new sessions go round robin). */
    private Browser userAtHomeOn(Node home) {
        List<String> routes = new ArrayList<>();
        for (int attempt = 0; attempt < 4; attempt++) {
            Browser browser = new Browser();
            viaBalancer(browser, "op=create");
            if (home.route().equals(route(browser))) {
                return browser;
            }
            routes.add(route(browser));
        }
        throw new AssertionError("The balancer gave no new session to " + home + ": " + routes);
    }

    /** A visitor at home on {@code home}, logged in by the container as {@code user}, with a cart. */
    private Browser loggedInUserAtHomeOn(Node home, String user) {
        Browser browser = userAtHomeOn(home);
        viaBalancer(browser, "op=login&user=" + user + "&password=" + TestNodes.PASSWORD);
        viaBalancer(browser, "op=put&name=cart&value=book-" + user);
        assertSessionOf(browser, user, "book-" + user, "on " + home);
        assertEquals(home.route(), route(browser), user + "'s session moved");
        return browser;
    }

    /** Through the balancer, {@code browser}'s session has the cart {@code cart} and the container login {@code user}. */
    private void assertSessionOf(Browser browser, String user, String cart, String when) {
        Map<String, String> seen = viaBalancer(browser, "op=get");
        assertEquals("Note(" + cart + ")", seen.get("attr.cart"), user + "'s cart " + when + ": " + seen);
        assertEquals(user, seen.get("principal"), user + "'s login " + when + ": " + seen);
    }

    /** The route of the browser's session id: the node the balancer sends its requests to. */
    static String route(Browser browser) {
        return SessionIds.routeOf(browser.cookie());
    }

    private static void sleepUntil(Instant instant) throws InterruptedException {
        Duration left = Duration.between(Instant.now(), instant);
        if (!left.isNegative()) {
            Thread.sleep(left.toMillis() + 1);
        }
    }
}
