package io.hbasesessions.distribution;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The real jetty-home with this build's module zip, installed into a new jetty-base exactly as
 * README.md tells a user; Jetty runs as {@code java -jar $JETTY_HOME/start.jar} and deploys the shop
 * WAR from {@code webapps/}. The shop's session is in HBase while Jetty is down, and back after the
 * restart. (jetty-session-datastore's own JettyDistributionIT runs its test WAR on ee10 and ee11.)
 */
@ExtendWith(HBaseExtension.class)
class JettyDistributionIT {

    /** The default key scope on Jetty: the context path. */
    private static final String KEY_SCOPE = "/shop";
    private static final String MODULES = "http,ee10-deploy,ee10-annotations,session-cache-hash,session-store-hbase";

    @SuppressWarnings("try") // the second server only has to run while the browser reads
    @Test
    void theShopsSessionLivesInHBaseAndSurvivesARestart(EmbeddedHBase hbase) throws Exception {
        String version = System.getProperty("jetty.home.version");
        Path jettyHome = Path.of(System.getProperty("distributions"), "jetty-home-" + version);
        Path jettyBase = Path.of("target", "it", "jetty-base").toAbsolutePath();
        FileTrees.deleteRecursively(jettyBase);
        installAsReadmeSays(jettyHome, jettyBase, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        int port = ServerProcess.freePort();
        URI shop = URI.create("http://127.0.0.1:" + port + "/shop/");

        Browser browser = new Browser();
        Map<String, String> beforeRestart;
        try (ServerProcess jetty = start(jettyHome, jettyBase, port, "first-run.log", shop)) {
            browser.act(shop, Map.of("action", "add", "sku", "book", "quantity", "3"));
            beforeRestart = browser.facts(shop);
            assertEquals("jetty/" + version, beforeRestart.get("server"));
            assertEquals("3", beforeRestart.get("item.book"));
            assertTrue(Files.readString(jetty.log()).contains("Sessions are stored in HBase"),
                    "the store did not report its settings: see " + jetty.log());
        }

        try (StoredSessions stored = new StoredSessions(hbase, KEY_SCOPE)) {
            assertTrue(stored.exists(browser.sessionId()), "the session is not in HBase while Jetty is down");
        }

        try (ServerProcess jetty = start(jettyHome, jettyBase, port, "second-run.log", shop)) {
            Map<String, String> afterRestart = browser.facts(shop);
            assertEquals(beforeRestart.get("session"), afterRestart.get("session"), "another session after the restart");
            assertEquals("3", afterRestart.get("item.book"), "the cart did not survive the restart: " + afterRestart);
        }
    }

    /** README.md's steps, in its order. */
    private static void installAsReadmeSays(Path jettyHome, Path jettyBase, String zookeeperQuorum)
            throws IOException, InterruptedException {
        Files.createDirectories(jettyBase);
        FileTrees.unzip(Path.of(System.getProperty("jetty.module.zip")), jettyBase);
        Path addModulesLog = jettyBase.resolve("add-modules.log");
        Process addModules = startJar(jettyHome, jettyBase, List.of("--add-modules=" + MODULES))
                .redirectErrorStream(true).redirectOutput(addModulesLog.toFile()).start();
        assertTrue(addModules.waitFor(60, TimeUnit.SECONDS), "start.jar --add-modules did not finish");
        assertEquals(0, addModules.exitValue(), "start.jar --add-modules failed:\n" + Files.readString(addModulesLog));
        Files.writeString(jettyBase.resolve("start.d/session-store-hbase.ini"),
                "jetty.session.hbase.zookeeperQuorum=" + zookeeperQuorum + "\n", StandardOpenOption.APPEND);
        Files.copy(Path.of(System.getProperty("shop.war")), jettyBase.resolve("webapps/shop.war"));
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
