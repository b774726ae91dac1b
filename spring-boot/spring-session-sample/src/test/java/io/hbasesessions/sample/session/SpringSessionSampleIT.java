package io.hbasesessions.sample.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootVersion;

/**
 * Issue #32: the sample on two JVMs sharing one HBase through Spring Session (on Undertow with Boot 3.5, on Tomcat with
 * Boot 4.0, where the same spring-session-hbase jar runs on Spring Session 4), over HTTP as a browser sees
 * them (one cookie for both nodes, no affinity): a login on one node is a login on the other and the cart follows;
 * {@code maximumSessions(1)} holds across the nodes (a login on one finds and ends the user's session made on the other);
 * logout on one node is logout on both; forged cookies open nothing.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringSessionSampleIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");
    private static final Path LOGS = Path.of("target", "sample-nodes");

    private SampleNode one;
    private SampleNode two;

    @BeforeAll
    void startTwoNodes(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put("hbase.sessions.zookeeper-quorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        properties.put("hbase.sessions.table", namespace.table("sessions"));
        properties.put("hbase.sessions.index-table", namespace.table("user_sessions"));
        properties.put("hbase.sessions.regions", "1");
        one = SampleNode.start(LOGS.resolve("one.log"), properties);
        two = SampleNode.start(LOGS.resolve("two.log"), properties);
        one.awaitStarted(START_TIMEOUT);
        two.awaitStarted(START_TIMEOUT);
    }

    @AfterAll
    void stopBoth() throws InterruptedException {
        for (SampleNode node : new SampleNode[] {one, two}) {
            if (node != null) {
                node.stop();
            }
        }
    }

    @Test
    void bothNodesRunTheServerAndSpringSessionOfThisBootLine() {
        boolean boot3 = SpringBootVersion.getVersion().startsWith("3.");
        for (SampleNode node : new SampleNode[] {one, two}) {
            Browser.Answer home = new Browser().get(node.url("/")).expect(200);
            assertTrue(home.value("server").startsWith(boot3 ? "Undertow" : "Apache Tomcat/11"), node + ": " + home.body());
            assertTrue(home.value("springSession").startsWith(boot3 ? "3.5." : "4.0."), node + ": " + home.body());
        }
    }

    @Test
    void aLoginOnOneNodeIsALoginOnTheOtherAndTheCartFollows() {
        Browser browser = new Browser();
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
    void maximumSessionsOfOneHoldsAcrossTheNodesAndFindByPrincipalNameSeesBoth() {
        Browser first = new Browser();
        logIn(first, one, one, "bob");
        assertEquals("1", first.get(two.url("/account")).expect(200).value("sessions"));

        // The login on node two finds the session node one made (findByPrincipalName) and marks it expired; the
        // older browser's next request, on node one, is told so and logged out, on both nodes.
        Browser second = new Browser();
        logIn(second, two, two, "bob");
        Browser.Answer expired = first.get(one.url("/account")).expect(200);
        assertTrue(expired.body().contains("This session has been expired"), expired.body());
        for (SampleNode node : new SampleNode[] {one, two}) {
            assertLoggedOut(first, node);
            Browser.Answer account = second.get(node.url("/account")).expect(200);
            assertEquals("bob", account.value("user"));
            assertEquals("1", account.value("sessions"));
        }
    }

    @Test
    void aLogoutOnOneNodeIsALogoutOnTheOther() {
        Browser browser = new Browser();
        logIn(browser, two, one, "alice");
        String csrf = browser.get(one.url("/account")).expect(200).value("csrf");
        browser.post(one.url("/logout"), Map.of("_csrf", csrf)).expect(302);
        assertLoggedOut(browser, two);
        assertLoggedOut(browser, one);
    }

    @Test
    void forgedAndOverlongCookiesOpenNothingAndBreakNothing() {
        Browser alice = new Browser();
        logIn(alice, one, one, "alice");
        for (String forged : new String[] {"forged", "x".repeat(4_000), alice.cookie() + "x", "%00%ff", "Li4vLi4v"}) {
            assertLoggedOut(Browser.withCookie(forged), one);
            assertLoggedOut(Browser.withCookie(forged), two);
        }
        assertEquals("alice", alice.get(two.url("/account")).expect(200).value("user"));
    }

    private static void logIn(Browser browser, SampleNode formNode, SampleNode postNode, String user) {
        Browser.Answer page = browser.get(formNode.url("/login")).expect(200);
        Matcher csrf = CSRF_INPUT.matcher(page.body());
        assertTrue(csrf.find(), page.body());
        Browser.Answer answer = browser.post(postNode.url("/login"),
                Map.of("username", user, "password", user + "-password", "_csrf", csrf.group(1)));
        assertEquals(302, answer.status(), answer.body());
        assertFalse(String.valueOf(answer.location()).contains("error"), user + " was refused: " + answer.location());
    }

    private static void assertLoggedOut(Browser browser, SampleNode node) {
        Browser.Answer account = browser.get(node.url("/account"));
        assertEquals(302, account.status(), node + ": " + account.body());
        assertTrue(String.valueOf(account.location()).endsWith("/login"), node + ": " + account.location());
    }
}
