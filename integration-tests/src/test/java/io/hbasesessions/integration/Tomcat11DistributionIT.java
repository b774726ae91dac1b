package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * {@link AbstractTomcatDistributionIT} on Tomcat 11, and a web application that brings the store in its WAR:
 * the Shiro test WAR, deployed, used and undeployed five times through the manager application.
 */
class Tomcat11DistributionIT extends AbstractTomcatDistributionIT {

    private static final int REDEPLOYS = 5;
    /** Threads a Tomcat may add or end between two redeploys on its own (its request threads are renewed). */
    private static final int THREAD_SLACK = 3;
    private static final int LEAK_CHECKS = 3;
    /**
     * The jars that excluding common-store from shiro-session-dao leaves out (docs/install.md, Apache Shiro): the drop-in has
     * them. Not commons-logging, which Shiro's commons-beanutils needs too.
     */
    private static final List<String> STORE_JARS = List.of("common-store-", "hbase-sessions-api-", "hbase-shaded-client-",
            "htrace-core4-", "kryo-", "reflectasm-", "objenesis-", "minlog-", "HdrHistogram-", "opentelemetry-",
            "audience-annotations-");

    @Override
    String versionProperty() {
        return "tomcat11.dist.version";
    }

    /** The Shiro WAR's shiro.ini takes its HBase from system properties (see shiro-test-webapp). */
    @Override
    void extraInstall(Path catalinaBase) throws IOException {
        super.extraInstall(catalinaBase);
        Files.writeString(catalinaBase.resolve("bin/setenv.sh"), "CATALINA_OPTS=\""
                + "-Dshiro.ini.main.hbaseSessionDAO.zookeeperQuorum=" + hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort()
                + " -Dshiro.ini.main.hbaseSessionDAO.keyScope=/shiro"
                + " -Dshiro.ini.main.hbaseSessionDAO.stateProtection=hmac"
                + " -Dshiro.ini.main.hbaseSessionDAO.stateKeyFile=" + TomcatServer.stateKeysIn(catalinaBase) + "\"\n");
    }

    /**
     * Issue #28 item 4: five redeploys of a WAR holding the store and HBase's client leave no thread behind and no
     * class loader (Tomcat's {@code findleaks} finds nothing), and Tomcat reports no thread or thread local of it.
     */
    @Test
    @Order(9)
    void aWarWithTheStoreInsideRedeploysFiveTimesAndLeavesNothingBehind() throws Exception {
        String war = Path.of(System.getProperty("shiro.war")).toUri().toString();
        int threadsAfterFirst = 0;
        for (int round = 1; round <= REDEPLOYS; round++) {
            Instant deploying = Instant.now();
            String deployed = nodeB.manager("text/deploy", "path=/shiro&war=" + war);
            assertTrue(deployed.startsWith("OK"), deployed);
            Figures.print("tomcat " + version() + " shiro redeploy " + round, "deployed in "
                    + Duration.between(deploying, Instant.now()).toMillis() + " ms");
            HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
            String loggedIn = "alice [book from " + nodeB.url("").getPort() + "]";
            assertEquals(loggedIn, get(browser, nodeB.url("shiro/login?user=alice")));
            assertEquals(loggedIn, get(browser, nodeB.url("shiro/account")));
            String undeployed = nodeB.manager("text/undeploy", "path=/shiro");
            assertTrue(undeployed.startsWith("OK"), undeployed);
            int threads = threadCount();
            Figures.print("tomcat " + version() + " shiro redeploy " + round, threads + " threads after the undeploy");
            if (round == 1) {
                threadsAfterFirst = threads;
            }
        }
        assertTrue(threadCount() <= threadsAfterFirst + THREAD_SLACK, "threads grew over the redeploys");
        assertNoLeakFound();
        String log = Files.readString(nodeB.log());
        for (String report : List.of("appears to have started a thread", "created a ThreadLocal")) {
            assertTrue(!log.contains(report), "Tomcat reports: " + report + " (see " + nodeB.log() + ")");
        }
    }

    /**
     * What docs/install.md says may live in the container's {@code lib/} instead of the WAR: with the drop-in jar there,
     * a Shiro WAR holds only Shiro and {@code shiro-session-dao}; it deploys, logs in and undeploys cleanly.
     */
    @Test
    @Order(10)
    void aWarWithoutTheStoreUsesTheDropInOfTheContainersLib() throws Exception {
        Path full = Path.of(System.getProperty("shiro.war"));
        Path lean = FileTrees.copyZipWithout(full, nodeB.catalinaBase().resolve("shiro-lean.war"),
                entry -> STORE_JARS.stream().anyMatch(jar -> entry.startsWith("WEB-INF/lib/" + jar)));
        Figures.print("tomcat " + version() + " shiro WAR", Files.size(full) / 1_000_000 + " MB with the store inside, "
                + Files.size(lean) / 1_000_000 + " MB with it in lib/");
        Instant deploying = Instant.now();
        String deployed = nodeB.manager("text/deploy", "path=/shiro-lean&war=" + lean.toUri());
        assertTrue(deployed.startsWith("OK"), deployed);
        Figures.print("tomcat " + version() + " shiro WAR without the store", "deployed in "
                + Duration.between(deploying, Instant.now()).toMillis() + " ms");
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
        String loggedIn = "alice [book from " + nodeB.url("").getPort() + "]";
        assertEquals(loggedIn, get(browser, nodeB.url("shiro-lean/login?user=alice")));
        assertEquals(loggedIn, get(browser, nodeB.url("shiro-lean/account")));
        assertTrue(nodeB.manager("text/undeploy", "path=/shiro-lean").startsWith("OK"));
        assertNoLeakFound();
    }

    /**
     * Tomcat's {@code findleaks} (it runs a full GC first), asked up to {@link #LEAK_CHECKS} times a second apart:
     * objects with finalizers (netty's pooled buffers, timers) keep their class loader for one more collection.
     */
    private void assertNoLeakFound() throws InterruptedException {
        String leaks = nodeB.manager("text/findleaks", "statusLine=true");
        int check = 1;
        for (; check < LEAK_CHECKS && !leaks.startsWith("OK - No memory leaks found"); check++) {
            Thread.sleep(1_000);
            leaks = nodeB.manager("text/findleaks", "statusLine=true");
        }
        Figures.print("tomcat " + version() + " findleaks", "asked " + check + " times");
        assertEquals("OK - No memory leaks found", leaks.strip(), leaks);
    }

    private int threadCount() {
        String answer = nodeB.manager("jmxproxy/", "get=java.lang:type=Threading&att=ThreadCount");
        return Integer.parseInt(answer.substring(answer.lastIndexOf('=') + 1).strip());
    }

    private static String get(HttpClient browser, URI target) throws IOException, InterruptedException {
        HttpResponse<String> response = browser.send(HttpRequest.newBuilder(target).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), target + ": " + response.body());
        return response.body();
    }
}
