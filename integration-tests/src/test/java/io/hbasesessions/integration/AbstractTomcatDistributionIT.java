package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.testing.Browser;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The real Tomcat distribution with this build's drop-in jar, installed exactly as docs/install.md tells a user,
 * twice (nodes A and B, two {@code $CATALINA_BASE}s of one version sharing the test HBase); each runs as
 * {@code bin/catalina.sh run}. They serve the shop WAR, Tomcat's own {@code examples} application (its FORM
 * login as Tomcat ships it), {@code form-login-webapp} with the FORM login of its {@code web.xml}, and the same
 * WAR at {@code /basic} and {@code /digest} behind Tomcat's BASIC and DIGEST authenticators. The checks share
 * the two running servers and make sessions of their own; the restart comes last.
 */
abstract class AbstractTomcatDistributionIT extends AbstractDistributionIT<TomcatServer> {

    /** The default key scope, the same on Tomcat and Jetty: the context path (the default host adds nothing). */
    private static final String KEY_SCOPE = "/shop";
    /** A user of the examples' role {@code tomcat} and the form WAR's role {@code user}; a password found nowhere else. */
    static final String USER = "formuser";
    static final String PASSWORD = "fl-pw-Zq81xV";
    /** The manager application's user: its text interface and JMX proxy. */
    static final String OPERATOR = "ops";
    static final String OPERATOR_PASSWORD = "ops-pw-7Hd2";
    /** The DIGEST authenticator's nonce key, the same on both nodes (its default is random per node). */
    private static final String DIGEST_KEY = "digest-key-shared-by-the-nodes";

    /** The system property naming the distribution's version. */
    abstract String versionProperty();

    String version() {
        return System.getProperty(versionProperty());
    }

    @Override
    TomcatServer install(String name, String zookeeperQuorum) throws IOException, InterruptedException {
        return TomcatServer.install(version(), name, zookeeperQuorum, stateKeys, this::extraInstall);
    }

    /** What a test class adds to each node's installation, beyond the steps of docs/install.md and the test's applications. */
    void extraInstall(Path catalinaBase) throws IOException {
        FileTrees.replaceOnce(catalinaBase.resolve("conf/tomcat-users.xml"), "</tomcat-users>",
                "  <user username=\"" + USER + "\" password=\"" + PASSWORD + "\" roles=\"tomcat,user\"/>\n"
                        + "  <user username=\"" + OPERATOR + "\" password=\"" + OPERATOR_PASSWORD
                        + "\" roles=\"manager-script,manager-jmx\"/>\n</tomcat-users>");
        Path war = Path.of(System.getProperty("form.login.war"));
        Files.copy(war, catalinaBase.resolve("webapps/form.war"));
        Path contexts = Files.createDirectories(catalinaBase.resolve("conf/Catalina/localhost"));
        Files.writeString(contexts.resolve("basic.xml"), "<Context docBase=\"" + war + "\">\n"
                + "  <Valve className=\"org.apache.catalina.authenticator.BasicAuthenticator\"/>\n</Context>\n");
        Files.writeString(contexts.resolve("digest.xml"), "<Context docBase=\"" + war + "\">\n"
                + "  <Valve className=\"org.apache.catalina.authenticator.DigestAuthenticator\" key=\"" + DIGEST_KEY
                + "\"/>\n</Context>\n");
        Files.writeString(contexts.resolve("nocache.xml"), "<Context docBase=\"" + war + "\">\n"
                + "  <Valve className=\"org.apache.catalina.authenticator.FormAuthenticator\" cache=\"false\"/>\n"
                + "</Context>\n");
    }

    /** Issue #28 item 1: Tomcat's own examples, on one node: the login goes through, the session's cart stays. */
    @Test
    @Order(1)
    void theExamplesFormLoginWorksOnOneNodeAndKeepsTheSession() {
        Browser browser = new Browser();
        browser.get(nodeA.url("examples/servlets/servlet/SessionExample"), "dataname=cart&datavalue=mug").expect(200);
        String protectedPage = "examples/jsp/security/protected/index.jsp";
        assertTrue(browser.get(nodeA.url(protectedPage)).expect(200).body().contains("j_security_check"),
                "not the login page");
        String beforeLogin = browser.sessionId();

        browser.post(nodeA.url("examples/jsp/security/protected/j_security_check"),
                Map.of("j_username", USER, "j_password", PASSWORD)).expect(303);

        String page = browser.get(nodeA.url(protectedPage)).expect(200).body();
        assertTrue(page.contains("<b>" + USER + "</b>"), page);
        assertNotEquals(beforeLogin, browser.sessionId(), "the login did not change the session id");
        String sessionPage = browser.get(nodeA.url("examples/servlets/servlet/SessionExample")).expect(200).body();
        assertTrue(sessionPage.contains("cart = mug"), "the cart is gone after the login: " + sessionPage);
    }

    /**
     * Issue #28 item 1: the login page from node A, {@code j_security_check} posted to node B, the original
     * request restored on node A again: no affinity needed. Neither the password nor the session id the login
     * expects (Tomcat's note) reaches a cell.
     */
    @Test
    @Order(2)
    void theExamplesFormLoginWorksAcrossNodesWithoutAffinity() {
        Browser browser = new Browser();
        String protectedPage = "examples/jsp/security/protected/index.jsp";
        assertTrue(browser.get(nodeA.url(protectedPage)).expect(200).body().contains("j_security_check"));
        assertSessionIdStoredNowhere(browser.sessionId());
        String location = browser.post(nodeB.url("examples/jsp/security/protected/j_security_check"),
                Map.of("j_username", USER, "j_password", PASSWORD)).expect(303).location();
        assertSessionIdStoredNowhere(browser.sessionId());
        assertTrue(location.endsWith("/" + protectedPage), "not back to the page asked for: " + location);
        String page = browser.get(nodeA.url(protectedPage)).expect(200).body();
        assertTrue(page.contains("<b>" + USER + "</b>"), page);
        assertTrue(browser.get(nodeB.url(protectedPage)).expect(200).body().contains("<b>" + USER + "</b>"));
        assertPasswordStoredNowhere();
    }

    /**
     * A POST to a protected page makes the login page; the login on the other node; the original POST, its form
     * field included, is what the application gets on the first node afterwards. The POST names its session in
     * its URI too ({@code ;jsessionid=}, as a page of an application that rewrites URLs does): the request Tomcat
     * saves is stored without it.
     */
    @Test
    @Order(3)
    void theRequestSavedBeforeTheLoginPageIsRestoredOnAnotherNodeWithItsBody() {
        Browser browser = new Browser();
        browser.get(nodeA.url("form/cart"), "add=mug").expect(200);
        String beforeTheLoginPage = browser.sessionId();
        assertTrue(browser.post(nodeA.url("form/protected/order;jsessionid=" + beforeTheLoginPage), Map.of("item", "mug"))
                .expect(200).body().contains("j_security_check"));
        assertSessionIdStoredNowhere(beforeTheLoginPage);
        assertSessionIdStoredNowhere(browser.sessionId());
        String location = browser.post(nodeB.url("form/j_security_check"), Map.of("j_username", USER, "j_password", PASSWORD))
                .expect(303).location();
        assertTrue(location.endsWith("/form/protected/order"), "not back to the page asked for: " + location);
        Map<String, String> restored = browser.get(nodeA.url("form/protected/order")).expect(200).values();
        assertEquals(USER, restored.get("user"));
        assertEquals("POST", restored.get("method"), "not the saved request: " + restored);
        assertEquals("mug", restored.get("item"), "the saved request's body was lost: " + restored);
        assertEquals(browser.sessionId(), restored.get("sessionCookie"),
                "the restored request does not carry the browser's own cookies (docs/limits.md): " + restored);
        assertPasswordStoredNowhere();
    }

    /**
     * A BASIC login is kept in the session the request has (Tomcat makes none for it): a login on one node is one
     * on the other. DIGEST keeps none (Tomcat's DigestAuthenticator does not cache, every request answers a
     * challenge): it works on a node as on Tomcat's own manager.
     */
    @Test
    @Order(4)
    void aBasicLoginCrossesNodesAndDigestWorksOnEachNode() throws Exception {
        Browser basic = new Browser();
        basic.get(nodeA.url("basic/cart"), "add=mug").expect(200);
        String credentials = Base64.getEncoder().encodeToString((USER + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
        assertEquals(USER, basic.get(nodeA.url("basic/protected/page"), "x=1", Map.of("Authorization", "Basic " + credentials))
                .expect(200).value("user"));
        assertEquals(USER, basic.get(nodeB.url("basic/protected/page")).expect(200).value("user"),
                "the BASIC login did not reach the other node");

        for (TomcatServer node : new TomcatServer[] {nodeA, nodeB}) {
            DigestClient digest = new DigestClient(USER, PASSWORD);
            assertEquals("mug", digest.get(node.url("digest/cart?add=mug")).get("cart"));
            assertEquals(200, digest.logIn(node.url("digest/protected/page"), node.url("digest/protected/page")));
        }
        assertPasswordStoredNowhere();
    }

    /**
     * A limit in docs/limits.md: a DIGEST challenge of one node is no challenge the other node knows: nonces are kept in
     * the authenticator, and even with the same {@code key} on both nodes the other node asks again.
     */
    @Test
    @Order(5)
    void aDigestChallengeOfOneNodeIsAnsweredOnThatNodeOnly() throws Exception {
        DigestClient digest = new DigestClient(USER, PASSWORD);
        digest.get(nodeA.url("digest/cart?add=mug"));
        assertEquals(401, digest.logIn(nodeA.url("digest/protected/page"), nodeB.url("digest/protected/page")));
    }

    /**
     * A limit in docs/limits.md: with {@code cache="false"} Tomcat's FORM authenticator logs the user in again on every
     * request from the password it keeps in a session note. The password is never stored, so the login does not
     * outlast the request that made it, even on one node; the log names the note that was not stored.
     */
    @Test
    @Order(6)
    void aFormLoginThatCachesNoLoginDoesNotOutlastItsRequest() throws IOException {
        Browser browser = new Browser();
        assertTrue(browser.get(nodeA.url("nocache/protected/page")).expect(200).body().contains("j_security_check"));
        browser.post(nodeA.url("nocache/j_security_check"), Map.of("j_username", USER, "j_password", PASSWORD)).expect(303);
        assertTrue(browser.get(nodeA.url("nocache/protected/page")).expect(200).body().contains("j_security_check"),
                "the login outlasted its request: change docs/limits.md");
        assertPasswordStoredNowhere();
        assertTrue(Files.readString(nodeA.log()).contains("Session note org.apache.catalina.session.PASSWORD of context "
                + "[/nocache] is not stored"), "the note that stays with the request is not named in " + nodeA.log());
    }

    /**
     * A limit in docs/limits.md: Tomcat's manager application lists and expires only the sessions a node holds while
     * their requests run; none is listed, whatever HBase holds.
     */
    @Test
    @Order(7)
    void theManagerApplicationListsNoSessionOfThisManager() {
        Browser browser = new Browser();
        browser.get(nodeA.url("examples/servlets/servlet/SessionExample"), "dataname=cart&datavalue=mug").expect(200);
        String listing = nodeA.manager("text/sessions", "path=/examples");
        assertTrue(listing.startsWith("OK"), listing);
        assertEquals(List.of(), listing.lines().filter(line -> line.contains("minutes:")).toList(),
                "the manager application lists sessions now: change docs/limits.md");
        String expired = nodeA.manager("text/expire", "path=/examples&idle=0");
        assertTrue(expired.startsWith("OK"), expired);
        assertTrue(browser.get(nodeA.url("examples/servlets/servlet/SessionExample")).expect(200).body().contains("cart = mug"),
                "expire?idle=0 ended a session");
    }

    /**
     * Issue #28 item 5: the MBean is registered under the name tomcat-manager/README.md gives (and none for the
     * manager application, which keeps Tomcat's own manager, as docs/install.md says), and the node's log has neither
     * ZooKeeper's client environment nor the client's {@code Bits#unaligned()} warning.
     */
    @Test
    @Order(8)
    void theStoreMBeanHasItsDocumentedNameAndTheClientLogsNoNoise() throws IOException {
        String beans = nodeA.manager("jmxproxy/", "qry=io.hbasesessions:type=SessionStore,*");
        assertTrue(beans.contains("Name: io.hbasesessions:type=SessionStore,container=\"Tomcat/Catalina\","
                + "context=\"localhost/examples\""), beans);
        assertFalse(beans.contains("context=\"localhost/manager\""),
                "the manager application, which declares a <Manager> of its own, runs on this one: change docs/install.md");
        String log = Files.readString(nodeA.log());
        for (String noise : List.of("Client environment:", "Bits#unaligned", "InaccessibleObjectException")) {
            assertFalse(log.contains(noise), "the log has " + noise + ": see " + nodeA.log());
        }
    }

    /** The shop's session (a cart, then a login) is in HBase while Tomcat is down, and all of it is back after the restart. */
    @Test
    @Order(100)
    void theShopsSessionLivesInHBaseAndSurvivesARestart() throws Exception {
        Browser browser = new Browser();
        URI shop = nodeA.url("shop/");
        browser.post(shop, Map.of("action", "add", "sku", "mug", "quantity", "2")).expect(302);
        String anonymousSessionId = browser.sessionId();
        browser.post(shop, Map.of("action", "login", "user", "alice", "password", "demo")).expect(302);
        Map<String, String> beforeRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
        assertEquals("Apache Tomcat/" + version(), beforeRestart.get("server"));
        assertEquals("alice", beforeRestart.get("user"));
        assertEquals("2", beforeRestart.get("item.mug"));
        assertTrue(Files.readString(nodeA.log()).contains("HBase sessions for context [/shop]"),
                "the manager did not report its settings: see " + nodeA.log());
        nodeA.stop();

        try (StoredSessions stored = new StoredSessions(hbase, KEY_SCOPE, stateKeys)) {
            assertNotEquals(anonymousSessionId, browser.sessionId(), "the login did not rotate the session id");
            assertTrue(stored.exists(browser.sessionId()), "the session is not in HBase while Tomcat is down");
            assertFalse(stored.exists(anonymousSessionId), "the session is still stored under its id from before the login");
            assertTrue(stored.isIndexedUnder("alice", browser.sessionId()), "the session is not indexed under its user");
        }

        nodeA.start("a-second-run.log");
        Map<String, String> afterRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
        assertEquals(beforeRestart.get("session"), afterRestart.get("session"), "another session after the restart");
        assertEquals("2", afterRestart.get("item.mug"), "the cart did not survive the restart: " + afterRestart);
        assertEquals("alice", afterRestart.get("user"), "the login did not survive the restart: " + afterRestart);
    }

    void assertPasswordStoredNowhere() {
        assertStoredNowhere(PASSWORD, "the password");
    }

    void assertSessionIdStoredNowhere(String sessionId) {
        assertStoredNowhere(sessionId, "a session id");
    }
}
