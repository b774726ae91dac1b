package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.testing.Browser;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real jetty-home with this build's module zip, installed into a new jetty-base exactly as
 * README.md tells a user, once with Jetty's ee10 environment and once with ee11; Jetty runs as
 * {@code java -jar $JETTY_HOME/start.jar} and deploys the shop WAR from {@code webapps/}. The module
 * sets the session cache for non-sticky use; the shop's session, changed in place by a second request,
 * is in HBase while Jetty is down, and back after the restart.
 */
@ExtendWith(HBaseExtension.class)
class JettyDistributionIT {

    /** The default key scope on Jetty: the context path. */
    private static final String KEY_SCOPE = "/shop";

    @SuppressWarnings("try") // the second server only has to run while the browser reads
    @ParameterizedTest(name = "Jetty {0}")
    @ValueSource(strings = {"ee10", "ee11"})
    void theShopsSessionLivesInHBaseAndSurvivesARestart(String environment, EmbeddedHBase hbase) throws Exception {
        String version = System.getProperty("jetty.home.version");
        Path jettyHome = Path.of(System.getProperty("distributions"), "jetty-home-" + version);
        Path jettyBase = Path.of("target", "it", "jetty-base-" + environment).toAbsolutePath();
        FileTrees.deleteRecursively(jettyBase);
        installAsReadmeSays(jettyHome, jettyBase, environment, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        int port = ServerProcess.freePort();
        URI shop = URI.create("http://127.0.0.1:" + port + "/shop/");

        Browser browser = new Browser();
        Map<String, String> beforeRestart;
        try (ServerProcess jetty = start(jettyHome, jettyBase, port, "first-run.log", shop)) {
            browser.post(shop, Map.of("action", "add", "sku", "book", "quantity", "3")).expect(302);
            browser.post(shop, Map.of("action", "add", "sku", "mug")).expect(302); // changes the cart in place
            beforeRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
            assertEquals("jetty/" + version, beforeRestart.get("server"));
            assertEquals("3", beforeRestart.get("item.book"));
            assertTrue(Files.readString(jetty.log()).contains("Sessions are stored in HBase"),
                    "the store did not report its settings: see " + jetty.log());
        }

        try (StoredSessions stored = new StoredSessions(hbase, KEY_SCOPE, stateKeys(jettyBase))) {
            assertTrue(stored.exists(browser.sessionId()), "the session is not in HBase while Jetty is down");
        }

        try (ServerProcess jetty = start(jettyHome, jettyBase, port, "second-run.log", shop)) {
            Map<String, String> afterRestart = browser.get(shop.resolve("cart.txt")).expect(200).values();
            assertEquals(beforeRestart.get("session"), afterRestart.get("session"), "another session after the restart");
            assertEquals("3", afterRestart.get("item.book"), "the cart did not survive the restart: " + afterRestart);
            assertEquals("1", afterRestart.get("item.mug"), "the change in place did not survive the restart: " + afterRestart);
        }
    }

    /**
     * Issue #27: the module's jars were visible to every web application, so the Commons Collections relocated in
     * HBase's client resolved through any WAR's class loader, and the store's own classes too. Now they are the
     * server's hidden classes; only {@code SessionRevoker}, which the store hands each application, stays visible.
     */
    @SuppressWarnings("try") // the server only has to run while the browser asks
    @ParameterizedTest(name = "Jetty {0}")
    @ValueSource(strings = {"ee10", "ee11"})
    void aWebApplicationSeesNeitherTheStoreNorTheLibrariesItCarries(String environment, EmbeddedHBase hbase)
            throws Exception {
        String version = System.getProperty("jetty.home.version");
        Path jettyHome = Path.of(System.getProperty("distributions"), "jetty-home-" + version);
        Path jettyBase = Path.of("target", "it", "jetty-base-hidden-" + environment).toAbsolutePath();
        FileTrees.deleteRecursively(jettyBase);
        installAsReadmeSays(jettyHome, jettyBase, environment, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        Files.copy(Path.of(System.getProperty("test.war")), jettyBase.resolve("webapps/app.war"));
        int port = ServerProcess.freePort();
        URI app = URI.create("http://127.0.0.1:" + port + "/app/");

        // Jetty starts its connector once every web application is deployed: the shop answering means both are.
        try (ServerProcess jetty = start(jettyHome, jettyBase, port, "hidden-classes.log",
                URI.create("http://127.0.0.1:" + port + "/shop/"))) {
            Browser browser = new Browser();
            for (String hidden : List.of(
                    "org.apache.hbase.thirdparty.org.apache.commons.collections4.functors.InvokerTransformer",
                    "org.apache.hadoop.hbase.shaded.org.apache.commons.collections.functors.InvokerTransformer",
                    "com.esotericsoftware.kryo.Kryo", "org.objenesis.ObjenesisStd",
                    "io.hbasesessions.store.OpenStores", "io.hbasesessions.jetty.HBaseSessionDataStore")) {
                assertEquals("false", browser.get(app.resolve("classes"), "name=" + hidden).expect(200).value("visible"),
                        "a web application on Jetty " + environment + " loads " + hidden);
            }
            assertEquals("true", browser.get(app.resolve("classes"), "name=io.hbasesessions.api.SessionRevoker")
                    .expect(200).value("visible"));
            assertEquals("0", browser.get(app.resolve("session"), "op=revoke-all&user=nobody").expect(200)
                    .value("revoked"), "the store's SessionRevoker still reaches the application");
        }
    }

    /**
     * README.md's steps, in its order. The module brings its own session cache (issue #10 item 10: the
     * non-sticky-safe cache is the outcome of adding session-store-hbase), so no session-cache module is
     * added with it; Jetty refuses a second provider of session-cache.
     */
    private static void installAsReadmeSays(Path jettyHome, Path jettyBase, String environment, String zookeeperQuorum)
            throws IOException, InterruptedException {
        Files.createDirectories(jettyBase);
        FileTrees.unzip(Path.of(System.getProperty("jetty.module.zip")), jettyBase);
        String modules = "http," + environment + "-deploy," + environment + "-annotations,session-store-hbase";
        runStartJar(jettyHome, jettyBase, "add-modules.log", "--add-modules=" + modules);
        String configuration = runStartJar(jettyHome, jettyBase, "list-config.log", "--list-config");
        assertTrue(configuration.contains("etc/sessions/hbase/session-store.xml"),
                "the module's session cache and store are not configured:\n" + configuration);
        assertFalse(configuration.contains("session-cache-hash") || configuration.contains("session-cache-null"),
                "a session cache module other than the store's own is enabled:\n" + configuration);
        // README's openssl command writes the same: the base64 of 32 random bytes.
        Path keys = TestNodes.writeStateKey(stateKeys(jettyBase));
        Files.writeString(jettyBase.resolve("start.d/session-store-hbase.ini"),
                "jetty.session.hbase.zookeeperQuorum=" + zookeeperQuorum + "\n"
                        + "jetty.session.hbase.stateProtection=hmac\n"
                        + "jetty.session.hbase.stateKeyFile=" + keys + "\n", StandardOpenOption.APPEND);
        Files.copy(Path.of(System.getProperty("shop.war")), jettyBase.resolve("webapps/shop.war"));
    }

    /** Where this test keeps the key file README puts in /etc/hbase-sessions/. */
    private static Path stateKeys(Path jettyBase) {
        return jettyBase.resolve("etc/hbase-sessions/state-keys");
    }

    /** Runs {@code start.jar} with {@code argument} to its end and returns its output. */
    private static String runStartJar(Path jettyHome, Path jettyBase, String logName, String argument)
            throws IOException, InterruptedException {
        Path log = jettyBase.resolve(logName);
        Process process = startJar(jettyHome, jettyBase, List.of(argument)).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "start.jar " + argument + " did not finish");
        assertEquals(0, process.exitValue(), "start.jar " + argument + " failed:\n" + Files.readString(log));
        return Files.readString(log);
    }

    /** Not a README step: a free port instead of 8080, on the command line. */
    private static ServerProcess start(Path jettyHome, Path jettyBase, int port, String logName, URI shop)
            throws IOException, InterruptedException {
        ProcessBuilder jetty = startJar(jettyHome, jettyBase, List.of("jetty.http.host=127.0.0.1", "jetty.http.port=" + port));
        return ServerProcess.start(jetty, jettyBase.resolve(logName), shop.resolve("cart.txt"));
    }

    private static ProcessBuilder startJar(Path jettyHome, Path jettyBase, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jettyHome.resolve("start.jar").toString()));
        command.addAll(arguments);
        return new ProcessBuilder(command).directory(jettyBase.toFile());
    }
}
