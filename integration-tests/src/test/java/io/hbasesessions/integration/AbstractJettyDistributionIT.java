package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.testing.Browser;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The real jetty-home with this build's module zip, installed as docs/install.md tells a user into two jetty-bases of
 * one Jetty environment (nodes A and B, sharing the test HBase). They serve the shop WAR and
 * {@code form-login-webapp}, whose FORM login authenticates against Jetty's {@code HashLoginService} "Test Realm"
 * ({@code demo-realm}, as Jetty's documentation configures a realm). The checks share the two running servers
 * and make sessions of their own; the restart comes last.
 */
abstract class AbstractJettyDistributionIT extends AbstractDistributionIT<JettyServer> {

    /** The default key scope on Jetty: the context path. */
    private static final String KEY_SCOPE = "/shop";
    private static final String USER = "formuser";
    private static final String PASSWORD = "jf-pw-Wq43uD";

    /** The Jetty environment, {@code ee10} or {@code ee11}. */
    abstract String environment();

    @Override
    JettyServer install(String name, String zookeeperQuorum) throws IOException, InterruptedException {
        return JettyServer.install(environment(), name, zookeeperQuorum, stateKeys, this::extraInstall);
    }

    /** The FORM login WAR and its realm, with a user of role {@code user}. */
    void extraInstall(JettyServer server) throws IOException, InterruptedException {
        server.addModules("demo-realm");
        Files.writeString(server.jettyBase().resolve("etc/jetty-demo-realm.properties"),
                USER + ": " + PASSWORD + ",user\n", StandardOpenOption.APPEND);
        Files.copy(Path.of(System.getProperty("form.login.war")), server.jettyBase().resolve("webapps/form.war"));
        Files.copy(Path.of(System.getProperty("test.war")), server.jettyBase().resolve("webapps/app.war"));
    }

    /** Issue #28 item 1, on Jetty's FORM authenticator: one node, and the session's cart stays through the login. */
    @Test
    @Order(1)
    void theFormLoginWorksOnOneNodeAndKeepsTheSession() {
        Browser browser = new Browser();
        browser.get(nodeA.url("form/cart"), "add=mug").expect(200);
        expectLoginPage(browser, nodeA, browser.get(nodeA.url("form/protected/page")));
        expectRedirect(browser.post(nodeA.url("form/j_security_check"), Map.of("j_username", USER, "j_password", PASSWORD)));
        Map<String, String> page = browser.get(nodeA.url("form/protected/page")).expect(200).values();
        assertEquals(USER, page.get("user"));
        assertEquals("mug", page.get("cart"), "the cart is gone after the login: " + page);
    }

    /** The login page from node A, {@code j_security_check} on node B, the protected page on node A again. */
    @Test
    @Order(2)
    void theFormLoginWorksAcrossNodesWithoutAffinity() {
        Browser browser = new Browser();
        expectLoginPage(browser, nodeA, browser.get(nodeA.url("form/protected/page")));
        Browser.Answer login = browser.post(nodeB.url("form/j_security_check"), Map.of("j_username", USER, "j_password", PASSWORD));
        expectRedirect(login);
        assertTrue(login.location().endsWith("/form/protected/page"), "not back to the page asked for: " + login.location());
        assertEquals(USER, browser.get(nodeA.url("form/protected/page")).expect(200).value("user"));
        assertEquals(USER, browser.get(nodeB.url("form/protected/page")).expect(200).value("user"));
        assertPasswordStoredNowhere();
    }

    /**
     * A POST to a protected page before the login comes back, with its form fields, after a login on the other
     * node: Jetty's FormAuthenticator gives the request to the page asked for the fields it saved (as Jetty's own
     * manager does; the method stays the redirect's GET). The POST names its session in its URI too
     * ({@code ;jsessionid=}): the URI Jetty keeps is stored without it.
     */
    @Test
    @Order(3)
    void theRequestSavedBeforeTheLoginPageIsRestoredOnAnotherNodeWithItsForm() throws IOException {
        Browser browser = new Browser();
        browser.get(nodeA.url("form/cart"), "add=mug").expect(200);
        String beforeTheLogin = browser.sessionId();
        expectLoginPage(browser, nodeA, browser.post(nodeA.url("form/protected/order;jsessionid=" + beforeTheLogin),
                Map.of("item", "mug")));
        assertStoredNowhere(beforeTheLogin, "the session id");
        Browser.Answer login = browser.post(nodeB.url("form/j_security_check"), Map.of("j_username", USER, "j_password", PASSWORD));
        expectRedirect(login);
        assertTrue(login.location().endsWith("/form/protected/order"), "not back to the page asked for: " + login.location());
        Map<String, String> restored = getAsABrowserDoes(nodeA.url("form/protected/order"), browser.cookie());
        assertEquals(USER, restored.get("user"));
        assertEquals("mug", restored.get("item"), "the saved request's form was lost: " + restored);
    }

    /**
     * A GET without the {@code Content-Length: 0} Java's HttpClient sends: with it, Jetty gives the request its
     * (empty) body's fields instead of the saved ones, on its own manager as here.
     */
    private static Map<String, String> getAsABrowserDoes(URI target, String cookie) throws IOException {
        HttpURLConnection connection = (HttpURLConnection) target.toURL().openConnection();
        connection.setRequestProperty("Cookie", "JSESSIONID=" + cookie);
        connection.setInstanceFollowRedirects(false);
        assertEquals(200, connection.getResponseCode(), target.toString());
        try (InputStream body = connection.getInputStream()) {
            return new Browser.Answer(target, 200, new String(body.readAllBytes(), StandardCharsets.UTF_8), null).values();
        }
    }

    /**
     * Issue #27: the module's jars were visible to every web application, so the Commons Collections relocated in
     * HBase's client resolved through any WAR's class loader, and the store's own classes too. Now they are the
     * server's hidden classes; only {@code SessionRevoker}, which the store hands each application, stays visible.
     */
    @Test
    @Order(4)
    void aWebApplicationSeesNeitherTheStoreNorTheLibrariesItCarries() {
        Browser browser = new Browser();
        URI classes = nodeA.url("app/classes");
        for (String hidden : List.of(
                "org.apache.hbase.thirdparty.org.apache.commons.collections4.functors.InvokerTransformer",
                "org.apache.hadoop.hbase.shaded.org.apache.commons.collections.functors.InvokerTransformer",
                "com.esotericsoftware.kryo.Kryo", "org.objenesis.ObjenesisStd",
                "io.hbasesessions.store.OpenStores", "io.hbasesessions.jetty.HBaseSessionDataStore")) {
            assertEquals("false", browser.get(classes, "name=" + hidden).expect(200).value("visible"),
                    "a web application on Jetty " + environment() + " loads " + hidden);
        }
        assertEquals("true", browser.get(classes, "name=io.hbasesessions.api.SessionRevoker").expect(200).value("visible"));
        assertEquals("0", browser.get(nodeA.url("app/session"), "op=revoke-all&user=nobody").expect(200).value("revoked"),
                "the store's SessionRevoker no longer reaches the application");
    }

    /** Issue #28 item 5: the node's log has neither ZooKeeper's client environment nor the client's unaligned-access warning. */
    @Test
    @Order(5)
    void theClientLogsNoNoise() throws IOException {
        String log = Files.readString(nodeA.log());
        for (String noise : List.of("Client environment:", "Bits#unaligned", "InaccessibleObjectException")) {
            assertFalse(log.contains(noise), "the log has " + noise + ": see " + nodeA.log());
        }
    }

    /** The shop's session, changed in place by a second request, is in HBase while Jetty is down, and back after the restart. */
    @Test
    @Order(100)
    void theShopsSessionLivesInHBaseAndSurvivesARestart() throws Exception {
        Browser browser = new Browser();
        URI shop = nodeA.url("shop/");
        browser.post(shop, Map.of("action", "add", "sku", "book", "quantity", "3")).expect(302);
        browser.post(shop, Map.of("action", "add", "sku", "mug")).expect(302); // changes the cart in place
        Map<String, String> beforeRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
        assertEquals("jetty/" + System.getProperty("jetty.home.version"), beforeRestart.get("server"));
        assertEquals("3", beforeRestart.get("item.book"));
        assertTrue(Files.readString(nodeA.log()).contains("Sessions are stored in HBase"),
                "the store did not report its settings: see " + nodeA.log());
        nodeA.stop();

        try (StoredSessions stored = new StoredSessions(hbase, KEY_SCOPE, stateKeys)) {
            assertTrue(stored.exists(browser.sessionId()), "the session is not in HBase while Jetty is down");
        }

        nodeA.start("a-second-run.log");
        Map<String, String> afterRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
        assertEquals(beforeRestart.get("session"), afterRestart.get("session"), "another session after the restart");
        assertEquals("3", afterRestart.get("item.book"), "the cart did not survive the restart: " + afterRestart);
        assertEquals("1", afterRestart.get("item.mug"), "the change in place did not survive the restart: " + afterRestart);
    }

    /** Jetty redirects a request without a login to the login page (its FormAuthenticator does not forward by default). */
    private static void expectLoginPage(Browser browser, JettyServer node, Browser.Answer answer) {
        expectRedirect(answer);
        assertTrue(browser.get(node.url("form/login.html")).expect(200).body().contains("j_security_check"));
    }

    private static void expectRedirect(Browser.Answer answer) {
        assertTrue(answer.status() == 302 || answer.status() == 303, "no redirect after the login: " + answer.status()
                + " " + answer.body());
    }

    void assertPasswordStoredNowhere() {
        assertStoredNowhere(PASSWORD, "the password");
    }
}
