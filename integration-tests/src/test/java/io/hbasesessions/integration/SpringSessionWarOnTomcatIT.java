package io.hbasesessions.integration;

import static io.hbasesessions.testing.SpringSecurityForms.assertLoggedOut;
import static io.hbasesessions.testing.SpringSecurityForms.logIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.HBaseInspector;
import io.hbasesessions.testing.AbstractSpringSessionSampleIT;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.SampleNode;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Issue #32: the Spring Session sample as a WAR ({@code spring-session-war-sample}, Boot 4.0) on two real Tomcat 11
 * distributions, each installed as docs/install.md says (the drop-in jar in {@code lib/}, its manager server-wide in
 * {@code conf/context.xml}, one state key file copied to both) and given the WAR as docs/install.md tells a WAR's user:
 * in {@code webapps/}, Boot's {@code hbase.sessions.*} properties as the context's parameters. The samples' suite runs
 * over the two servers. Then the two session systems of one application: the WAR's container sessions (its
 * {@code /container-session} page, cookie {@code JSESSIONID}) in the drop-in's store and Spring Session's (cookie
 * {@code SESSION}) share one table and one key scope (the context path, both stores' default), and an id of either
 * presented under the other's cookie opens nothing of the other's and harms nothing.
 */
class SpringSessionWarOnTomcatIT extends AbstractSpringSessionSampleIT {

    private static final String VERSION = System.getProperty("tomcat11.dist.version");
    private static final String CONTEXT = "spring-shop";
    private static final String KEY_SCOPE = "/" + CONTEXT;
    private static final String CONTAINER_COOKIE = "JSESSIONID";

    /** The WAR on one installed Tomcat: a node of the suite. */
    private record DeployedWar(TomcatServer server) implements SampleNode {

        @Override
        public URI url(String path) {
            return server.url(CONTEXT + path);
        }

        @Override
        public void stop() {
            server.stop();
        }

        @Override
        public String toString() {
            return "the WAR at " + url("/");
        }
    }

    /** Installs both Tomcats and starts them at once: each takes most of its start deploying the WAR. */
    @Override
    protected List<DeployedWar> startTwoNodes(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        String quorum = hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
        Path stateKeys = TestNodes.writeStateKey(
                Path.of("target", "it", getClass().getSimpleName() + "-state-keys").toAbsolutePath());
        ExecutorService starts = Executors.newFixedThreadPool(2);
        try {
            List<Future<DeployedWar>> starting = Stream.of("spring-war-a", "spring-war-b")
                    .map(name -> starts.submit(() -> start(name, quorum, stateKeys))).toList();
            List<DeployedWar> started = new ArrayList<>();
            AssertionError failed = new AssertionError("A Tomcat did not start");
            for (Future<DeployedWar> node : starting) {
                try {
                    started.add(node.get());
                } catch (ExecutionException e) {
                    failed.addSuppressed(e.getCause());
                }
            }
            if (failed.getSuppressed().length > 0) {
                started.forEach(DeployedWar::stop);
                throw failed;
            }
            return started;
        } finally {
            starts.shutdown();
        }
    }

    private static DeployedWar start(String name, String quorum, Path stateKeys) throws IOException, InterruptedException {
        TomcatServer server = TomcatServer.install(VERSION, name, quorum, stateKeys,
                catalinaBase -> deployTheWar(catalinaBase, quorum));
        server.start(name + ".log");
        return new DeployedWar(server);
    }

    /**
     * As docs/install.md tells a WAR's user: the WAR in {@code webapps/}, Boot's properties as its context's parameters,
     * and only spring-web's jar scanned for what starts the application.
     */
    private static void deployTheWar(Path catalinaBase, String zookeeperQuorum) throws IOException {
        Files.copy(Path.of(System.getProperty("spring.session.war")), catalinaBase.resolve("webapps/" + CONTEXT + ".war"));
        StringBuilder context = new StringBuilder("<Context>\n");
        Map.of("hbase.sessions.zookeeper-quorum", zookeeperQuorum,
                "hbase.sessions.state-protection", "hmac",
                "hbase.sessions.state-key-file", TomcatServer.stateKeysIn(catalinaBase).toString())
                .forEach((name, value) -> context.append("    <Parameter name=\"").append(name).append("\" value=\"")
                        .append(value).append("\" override=\"false\"/>\n"));
        context.append("    <JarScanner>\n        <JarScanFilter defaultPluggabilityScan=\"false\" "
                + "pluggabilityScan=\"spring-web-*.jar\" defaultTldScan=\"false\"/>\n    </JarScanner>\n");
        Path contexts = Files.createDirectories(catalinaBase.resolve("conf/Catalina/localhost"));
        Files.writeString(contexts.resolve(CONTEXT + ".xml"), context.append("</Context>\n"));
    }

    @Override
    protected String cookieName() {
        return "SESSION";
    }

    /** Spring Security's servlet {@code ConcurrentSessionFilter} tells the older browser, then logs it out. */
    @Override
    protected void theOlderSessionsNextRequest(Browser older) {
        Browser.Answer expired = older.get(one.url("/account")).expect(200);
        assertTrue(expired.body().contains("This session has been expired"), expired.body());
    }

    @Test
    void bothNodesRunTheWarOnTheInstalledTomcatWithSpringSession4() {
        for (SampleNode node : bothNodes()) {
            Browser.Answer home = newBrowser().get(node.url("/")).expect(200);
            assertEquals("Apache Tomcat/" + VERSION, home.value("server"), node + ": " + home.body());
            assertTrue(home.value("springSession").startsWith("4.0."), node + ": " + home.body());
        }
    }

    /**
     * A Spring Session id sent as the container's cookie: the drop-in's store, looking at the very row Spring Session
     * wrote, finds no session there (the page gets a new container session without Spring Session's attributes), and
     * the user stays logged in with the cart, on both nodes.
     */
    @Test
    void aSpringSessionIdPresentedAsTheContainersCookieOpensNoContainerSessionAndTheLoginStays(Configuration client)
            throws IOException {
        Browser spring = newBrowser();
        logIn(spring, one, two, "alice");
        String csrf = spring.get(two.url("/account")).expect(200).value("csrf");
        spring.post(two.url("/cart"), Map.of("sku", "mug", "_csrf", csrf)).expect(302);
        String springId = springSessionIdOf(spring.cookie());
        assertStoredUnderTheOneKeyScope(client, springId, "Spring Session's session");

        for (SampleNode node : bothNodes()) {
            Browser container = Browser.withCookie(CONTAINER_COOKIE, springId);
            Map<String, String> page = container.get(node.url("/container-session")).expect(200).values();
            assertNotEquals(springId, container.sessionId(), "the container took Spring Session's session on " + node);
            assertEquals("1", page.get("visits"), node + ": " + page);
            assertEquals("[visits]", page.get("attributes"), "Spring Session's attributes in a container session on " + node);
        }
        for (SampleNode node : bothNodes()) {
            Browser.Answer account = spring.get(node.url("/account")).expect(200);
            assertEquals("alice", account.value("user"), node.toString());
            assertEquals("{mug=1}", account.value("cart"), node.toString());
        }
    }

    /**
     * A container session's id sent as Spring Session's cookie: Spring Session, looking at the very row the drop-in
     * wrote, finds no session there (the login page's request gets a session of its own), and the container's session
     * keeps its id and attributes.
     */
    @Test
    void aContainerSessionIdPresentedAsSpringSessionsCookieOpensNoSpringSessionAndTheContainersSessionStays(
            Configuration client) throws IOException {
        Browser container = new Browser(CONTAINER_COOKIE);
        container.get(one.url("/container-session")).expect(200);
        assertEquals("2", container.get(two.url("/container-session")).expect(200).value("visits"),
                "the container's session did not cross the nodes: it is not in the drop-in's store");
        String containerId = container.sessionId();
        assertStoredUnderTheOneKeyScope(client, containerId, "the container's session");

        for (SampleNode node : bothNodes()) {
            Browser spring = Browser.withCookie(cookieName(), springSessionCookieOf(containerId));
            assertLoggedOut(spring, node);
            assertNotEquals(containerId, springSessionIdOf(spring.cookie()),
                    "Spring Session took the container's session on " + node);
        }
        Map<String, String> page = container.get(one.url("/container-session")).expect(200).values();
        assertEquals(containerId, page.get("session"), "the container's session is gone");
        assertEquals("3", page.get("visits"), page.toString());
        assertEquals("[visits]", page.get("attributes"), "Spring Session wrote into the container's session");
    }

    /** Both stores hash an id with the key scope into the row key: the other store reads this very row. */
    private static void assertStoredUnderTheOneKeyScope(Configuration client, String sessionId, String whose)
            throws IOException {
        try (HBaseInspector cells = new HBaseInspector(client)) {
            assertFalse(cells.row("sessions", StoredSessions.rowKey(KEY_SCOPE, sessionId)).isEmpty(),
                    whose + " is not in the row of key scope " + KEY_SCOPE);
        }
    }

    /** Spring Session's cookie holds the id in base64 ({@code DefaultCookieSerializer}'s default). */
    private static String springSessionIdOf(String cookie) {
        return new String(Base64.getDecoder().decode(cookie), StandardCharsets.UTF_8);
    }

    private static String springSessionCookieOf(String sessionId) {
        return Base64.getEncoder().encodeToString(sessionId.getBytes(StandardCharsets.UTF_8));
    }
}
