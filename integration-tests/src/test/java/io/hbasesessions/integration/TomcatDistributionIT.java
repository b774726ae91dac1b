package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.testing.Browser;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real Tomcat distribution with this build's drop-in jar, installed exactly as README.md tells a
 * user; Tomcat runs as {@code bin/catalina.sh run} and deploys the shop WAR from {@code webapps/}.
 * The shop's session (a cart, then a login) is in HBase while Tomcat is down, and all of it is back
 * after the restart. As README says, the cells are protected ({@code stateProtection=hmac}).
 */
@ExtendWith(HBaseExtension.class)
class TomcatDistributionIT {

    /** The default key scope, the same on Tomcat and Jetty: the context path (the default host adds nothing). */
    private static final String KEY_SCOPE = "/shop";

    @SuppressWarnings("try") // the second server only has to run while the browser reads
    @ParameterizedTest(name = "Tomcat {0}")
    @ValueSource(strings = {"tomcat10.dist.version", "tomcat11.dist.version"})
    void theShopsSessionLivesInHBaseAndSurvivesARestart(String versionProperty, EmbeddedHBase hbase) throws Exception {
        String version = System.getProperty(versionProperty);
        Path distribution = Path.of(System.getProperty("distributions"), "apache-tomcat-" + version);
        Path catalinaBase = FileTrees.copyFresh(distribution, Path.of("target", "it", "tomcat-" + version).toAbsolutePath());
        installAsReadmeSays(catalinaBase, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        int port = ServerProcess.freePort();
        useTestPorts(catalinaBase, port);
        URI shop = URI.create("http://127.0.0.1:" + port + "/shop/");

        Browser browser = new Browser();
        String anonymousSessionId;
        Map<String, String> beforeRestart;
        try (ServerProcess tomcat = start(catalinaBase, "first-run.log", shop)) {
            browser.post(shop, Map.of("action", "add", "sku", "mug", "quantity", "2")).expect(302);
            anonymousSessionId = browser.sessionId();
            browser.post(shop, Map.of("action", "login", "user", "alice", "password", "demo")).expect(302);
            beforeRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
            assertEquals("Apache Tomcat/" + version, beforeRestart.get("server"));
            assertEquals("alice", beforeRestart.get("user"));
            assertEquals("2", beforeRestart.get("item.mug"));
            assertTrue(Files.readString(tomcat.log()).contains("HBase sessions for context [/shop]"),
                    "the manager did not report its settings: see " + tomcat.log());
        }

        try (StoredSessions stored = new StoredSessions(hbase, KEY_SCOPE, stateKeys(catalinaBase))) {
            assertNotEquals(anonymousSessionId, browser.sessionId(), "the login did not rotate the session id");
            assertTrue(stored.exists(browser.sessionId()), "the session is not in HBase while Tomcat is down");
            assertFalse(stored.exists(anonymousSessionId), "the session is still stored under its id from before the login");
            assertTrue(stored.isIndexedUnder("alice", browser.sessionId()), "the session is not indexed under its user");
        }

        try (ServerProcess tomcat = start(catalinaBase, "second-run.log", shop)) {
            Map<String, String> afterRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
            assertEquals(beforeRestart.get("session"), afterRestart.get("session"), "another session after the restart");
            assertEquals("2", afterRestart.get("item.mug"), "the cart did not survive the restart: " + afterRestart);
            assertEquals("alice", afterRestart.get("user"), "the login did not survive the restart: " + afterRestart);
        }
    }

    /** README.md's steps, in its order. */
    private static void installAsReadmeSays(Path catalinaBase, String zookeeperQuorum) throws IOException {
        Path jar = Path.of(System.getProperty("tomcat.dropin.jar"));
        Files.copy(jar, catalinaBase.resolve("lib").resolve(jar.getFileName()));
        // README's openssl command writes the same: the base64 of 32 random bytes.
        Path keys = TestNodes.writeStateKey(stateKeys(catalinaBase));
        FileTrees.replaceOnce(catalinaBase.resolve("conf/context.xml"), "</Context>",
                "    <Manager className=\"io.hbasesessions.tomcat.HBaseSessionManager\" zookeeperQuorum=\""
                        + zookeeperQuorum + "\"\n             stateProtection=\"hmac\" stateKeyFile=\"" + keys
                        + "\"/>\n</Context>");
        // Optional in README.md, but a start takes seconds longer per web application without it.
        FileTrees.replaceOnce(catalinaBase.resolve("conf/catalina.properties"),
                "tomcat.util.scan.StandardJarScanFilter.jarsToSkip=\\\n",
                "tomcat.util.scan.StandardJarScanFilter.jarsToSkip=\\\nhbase-sessions-tomcat-*.jar,\\\n");
        // The shop's login: a user of the realm server.xml configures (UserDatabaseRealm).
        FileTrees.replaceOnce(catalinaBase.resolve("conf/tomcat-users.xml"), "</tomcat-users>",
                "  <user username=\"alice\" password=\"demo\" roles=\"\"/>\n</tomcat-users>");
        Files.copy(Path.of(System.getProperty("shop.war")), catalinaBase.resolve("webapps/shop.war"));
    }

    /** Where this test keeps the key file README puts in /etc/hbase-sessions/. */
    private static Path stateKeys(Path catalinaBase) {
        return catalinaBase.resolve("conf/hbase-sessions/state-keys");
    }

    /** Not a README step: a free HTTP port instead of 8080, and no shutdown port (SIGTERM stops Tomcat). */
    private static void useTestPorts(Path catalinaBase, int httpPort) throws IOException {
        Path serverXml = catalinaBase.resolve("conf/server.xml");
        FileTrees.replaceOnce(serverXml, "<Server port=\"8005\"", "<Server port=\"-1\"");
        FileTrees.replaceOnce(serverXml, "<Connector port=\"8080\" protocol=\"HTTP/1.1\"",
                "<Connector port=\"" + httpPort + "\" protocol=\"HTTP/1.1\"");
    }

    private static ServerProcess start(Path catalinaBase, String logName, URI shop) throws IOException, InterruptedException {
        ProcessBuilder catalina = new ProcessBuilder(catalinaBase.resolve("bin/catalina.sh").toString(), "run")
                .directory(catalinaBase.toFile());
        Map<String, String> environment = catalina.environment();
        environment.keySet().removeIf(name -> name.startsWith("CATALINA_") || name.equals("JAVA_OPTS"));
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        return ServerProcess.start(catalina, catalinaBase.resolve("logs").resolve(logName), shop.resolve("cart.txt"));
    }
}
