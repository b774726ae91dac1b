package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractJettyDistributionIT} with Jetty's ee10 environment, and a Shiro web application (the Shiro test
 * WAR, Shiro and the DAO inside it) deployed beside the server-wide {@code session-store-hbase} module, set up the
 * way issue #28 found it: Shiro's own {@code DefaultWebSessionManager}, whose cookie is the container's
 * {@code JSESSIONID}, and Jetty's default key scope for {@code /shiro}, which is the DAO's too.
 */
class JettyEe10DistributionIT extends AbstractJettyDistributionIT {

    private static final String SHIRO_SCOPE = "/shiro";

    @Override
    String environment() {
        return "ee10";
    }

    @Override
    void extraInstall(JettyServer server) throws IOException, InterruptedException {
        super.extraInstall(server);
        Files.copy(Path.of(System.getProperty("shiro.war")), server.jettyBase().resolve("webapps/shiro.war"));
        server.systemProperty("shiro.ini.main.hbaseSessionDAO.zookeeperQuorum", hbase.zookeeperQuorum() + ":"
                + hbase.zookeeperPort());
        server.systemProperty("shiro.ini.main.hbaseSessionDAO.keyScope", SHIRO_SCOPE);
        // As the Shiro section of docs/install.md says, with the key every node of the fleet has.
        server.systemProperty("shiro.ini.main.hbaseSessionDAO.stateProtection", "hmac");
        server.systemProperty("shiro.ini.main.hbaseSessionDAO.stateKeyFile", server.stateKeys().toString());
        server.systemProperty("shiro.ini.main.sessionManager", "org.apache.shiro.web.session.mgt.DefaultWebSessionManager");
    }

    /**
     * Issue #28 item 2: every request of a Shiro login reaches Jetty's session handler with the cookie
     * {@code JSESSIONID} naming Shiro's session, on both nodes; Shiro's row stays Shiro's (still indexed under its
     * user for "log out everywhere") and the user stays logged in.
     */
    @Test
    @Order(6)
    void aShiroApplicationBesideTheModuleKeepsItsSessionsWhateverTheCookieName() throws Exception {
        CookieManager cookies = new CookieManager();
        HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).build();
        String loggedIn = "alice [book from " + nodeA.url("").getPort() + "]";
        assertEquals(loggedIn, get(browser, nodeA.url("shiro/login?user=alice")));
        String shiroSession = cookies.getCookieStore().getCookies().stream().filter(cookie -> cookie.getName().equals("JSESSIONID"))
                .map(HttpCookie::getValue).findFirst().orElseThrow(() -> new AssertionError("Shiro set no JSESSIONID"));
        for (JettyServer node : new JettyServer[] {nodeA, nodeB, nodeA}) {
            assertEquals(loggedIn, get(browser, node.url("shiro/account")), "the Shiro login is lost");
        }
        try (StoredSessions stored = new StoredSessions(hbase, SHIRO_SCOPE, stateKeys)) {
            assertTrue(stored.isIndexedUnder("alice", shiroSession), "Jetty rewrote Shiro's session as one of its own");
        }
    }

    private static String get(HttpClient browser, URI target) throws IOException, InterruptedException {
        HttpResponse<String> response = browser.send(HttpRequest.newBuilder(target).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), target + ": " + response.body());
        return response.body();
    }
}
