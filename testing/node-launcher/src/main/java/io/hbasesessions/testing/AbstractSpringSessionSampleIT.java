package io.hbasesessions.testing;

import static io.hbasesessions.testing.SpringSecurityForms.assertLoggedOut;
import static io.hbasesessions.testing.SpringSecurityForms.logIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every Spring Session sample shows, servlet or WebFlux (issue #32): the application as two nodes sharing one
 * HBase (two JVMs of its own, or its WAR on two containers), over HTTP as a browser sees them (one session cookie for
 * both nodes, no affinity). A Spring Security form login on one node is a login on the other and the cart follows;
 * {@code maximumSessions(1)} holds across the nodes (Spring Session's session registry over
 * {@code findByPrincipalName}); logout on one node, or "log out everywhere" ({@code revokeAll}) from one node, is
 * logout on both, and the cookie from before it opens nothing; forged and overlong cookies open nothing. Each sample
 * subclasses it with its two nodes and its session cookie, and adds what is its own. The applications serve
 * {@code /account} ({@code user}, {@code cart}, {@code sessions}: the user's sessions on all nodes, {@code csrf}
 * lines), {@code POST /cart} ({@code sku}, a redirect back) and {@code POST /account/revoke} ({@code revoked}: how many
 * sessions it ended), know {@code alice} and {@code bob}, and allow one session a user.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractSpringSessionSampleIT {

    protected SampleNode one;
    protected SampleNode two;

    /**
     * Starts the sample's two nodes, their sessions in {@code hbase} (in tables of {@code namespace}, unless the nodes
     * keep them where the sample's users would), and returns them once they serve; the suite stops them at the end.
     */
    protected abstract List<? extends SampleNode> startTwoNodes(EmbeddedHBase hbase, TestNamespace namespace)
            throws Exception;

    /** The name of the sample's session cookie. */
    protected abstract String cookieName();

    protected final Browser newBrowser() {
        return new Browser(cookieName());
    }

    protected final List<SampleNode> bothNodes() {
        return List.of(one, two);
    }

    @BeforeAll
    public void startTheNodes(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        List<? extends SampleNode> nodes = startTwoNodes(hbase, namespace);
        one = nodes.get(0);
        two = nodes.get(1);
    }

    @AfterAll
    public void stopBoth() throws InterruptedException {
        for (SampleNode node : Arrays.asList(one, two)) {
            if (node != null) {
                node.stop();
            }
        }
    }

    @Test
    public void aLoginOnOneNodeIsALoginOnTheOtherAndTheCartFollows() {
        Browser browser = newBrowser();
        logIn(browser, one, two, "alice");
        Browser.Answer onTwo = browser.get(two.url("/account")).expect(200);
        assertEquals("alice", onTwo.value("user"));

        Browser.Answer added = browser.post(two.url("/cart"), Map.of("sku", "mug", "_csrf", onTwo.value("csrf")));
        assertEquals(302, added.status(), added.body());
        Browser.Answer onOne = browser.get(one.url("/account")).expect(200);
        assertEquals("{mug=1}", onOne.value("cart"));
        browser.post(one.url("/cart"), Map.of("sku", "mug", "_csrf", onOne.value("csrf"))).expect(302);
        assertEquals("{mug=2}", browser.get(two.url("/account")).expect(200).value("cart"));
    }

    @Test
    public void maximumSessionsOfOneHoldsAcrossTheNodesAndFindByPrincipalNameSeesBoth() {
        Browser first = newBrowser();
        logIn(first, one, one, "bob");
        assertEquals("1", first.get(two.url("/account")).expect(200).value("sessions"));

        // The login on node two finds the session node one made (findByPrincipalName) and ends it: the older browser
        // is logged out on both nodes, the newer one has the user's only session.
        Browser second = newBrowser();
        logIn(second, two, two, "bob");
        theOlderSessionsNextRequest(first);
        for (SampleNode node : bothNodes()) {
            assertLoggedOut(first, node);
            Browser.Answer account = second.get(node.url("/account")).expect(200);
            assertEquals("bob", account.value("user"));
            assertEquals("1", account.value("sessions"));
        }
    }

    /** What the browser whose session a newer login ended sees first, before the login page: nothing of its own here. */
    protected void theOlderSessionsNextRequest(Browser older) {
    }

    @Test
    public void aLogoutOnOneNodeIsALogoutOnTheOtherAndTheCookieFromBeforeOpensNothing() {
        Browser browser = newBrowser();
        logIn(browser, two, one, "alice");
        String csrf = browser.get(one.url("/account")).expect(200).value("csrf");
        String before = browser.cookie();
        browser.post(one.url("/logout"), Map.of("_csrf", csrf)).expect(302);
        for (SampleNode node : bothNodes()) {
            assertLoggedOut(browser, node);
            assertLoggedOut(Browser.withCookie(cookieName(), before), node);
        }
    }

    @Test
    public void logOutEverywhereOnOneNodeEndsTheSessionOnBoth() {
        Browser browser = newBrowser();
        logIn(browser, one, two, "alice");
        String csrf = browser.get(two.url("/account")).expect(200).value("csrf");
        String before = browser.cookie();
        Browser.Answer revoked = browser.post(two.url("/account/revoke"), Map.of("_csrf", csrf)).expect(200);
        assertTrue(Integer.parseInt(revoked.value("revoked")) >= 1, revoked.body());
        for (SampleNode node : bothNodes()) {
            assertLoggedOut(Browser.withCookie(cookieName(), before), node);
        }
    }

    @Test
    public void forgedAndOverlongCookiesOpenNothingAndBreakNothing() {
        Browser alice = newBrowser();
        logIn(alice, one, one, "alice");
        for (String forged : new String[] {"forged", "x".repeat(4_000), alice.cookie() + "x", "%00%ff", "Li4vLi4v",
            alice.cookie().toUpperCase()}) {
            for (SampleNode node : bothNodes()) {
                assertLoggedOut(Browser.withCookie(cookieName(), forged), node);
            }
        }
        assertEquals("alice", alice.get(two.url("/account")).expect(200).value("user"));
    }
}
