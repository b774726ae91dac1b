package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.ForgedState;
import io.hbasesessions.store.HBaseInspector;
import io.hbasesessions.store.RelocatedGadgets;
import io.hbasesessions.store.codec.ForgedKryo;
import io.hbasesessions.testing.NodeOptions.Sessions;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProgram;
import java.net.CookieManager;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #16: a Shiro web application (ShiroFilter, native sessions through HBaseSessionDAO, Shiro and the DAO
 * inside its WAR) on a Tomcat 10.1 node and a Jetty 12.1 node sharing its sessions through HBase, over HTTP.
 * The containers keep their own sessions in memory: Shiro's are not theirs. With {@code expiryEvents} on, Shiro's
 * {@code SessionListener.onExpiration} fires once per idle session across the two nodes.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShiroTomcatAndJettyIT {

    private static final String CONTEXT_PATH = "/shiro";
    /** Shiro's idle timeout on both nodes, in milliseconds: short, so that idle expiry is tested in seconds. */
    private static final long TIMEOUT_MILLIS = 4_000;
    /** The store's expiry event delay on both nodes: Shiro's validation sweeps every second. */
    private static final int EVENT_DELAY_SECONDS = 2;
    /** Bound on waiting for expiry events: the timeout, the delay, and a loaded machine's slack. */
    private static final Duration EVENTS_DEADLINE = Duration.ofSeconds(40);
    /** The login page Shiro's authc sends a request without a login to. */
    private static final int TO_LOGIN = 302;

    private final TestNodes nodes = new TestNodes("shiro");
    private NodeProcess tomcat;
    private NodeProcess jetty;
    private Map<String, String> settings;

    @BeforeAll
    void startTheNodes(EmbeddedHBase hbase, TestNamespace namespace) throws InterruptedException {
        settings = TestNodes.storeSettings(hbase, namespace, CONTEXT_PATH);
        settings.put("expiryEvents", "true");
        settings.put("expiryEventDelaySeconds", Integer.toString(EVENT_DELAY_SECONDS));
        tomcat = nodes.start(shiroNode(NodeProgram.TOMCAT_10_1, "tomcat-10.1", settings));
        jetty = nodes.start(shiroNode(NodeProgram.JETTY_12_1, "jetty-12.1", settings));
        nodes.awaitReady();
    }

    @AfterAll
    void stopTheNodes() {
        nodes.stopAll();
    }

    /** The DAO's settings and the session timeout reach the WAR's shiro.ini as system properties. */
    private NodeProcess.Builder shiroNode(NodeProgram program, String name, Map<String, String> settings) {
        NodeProcess.Builder node = NodeProcess.builder(program)
                .war(shiroWar())
                .contextPath(CONTEXT_PATH)
                .sessions(Sessions.MEMORY)
                .workDirectory(nodes.directory().resolve(name))
                .log(nodes.directory().resolve(name + ".log"))
                .systemProperty("shiro.ini.main.sessionManager.globalSessionTimeout", Long.toString(TIMEOUT_MILLIS));
        settings.forEach((setting, value) -> node.systemProperty("shiro.ini.main.hbaseSessionDAO." + setting, value));
        return node;
    }

    @Test
    void aLoginOnOneNodeIsALoginOnTheOtherUntilLogout() throws Exception {
        HttpClient browser = browser();
        String loggedIn = "alice [book from " + tomcat.port() + "]";
        assertEquals(loggedIn, get(browser, tomcat, "login?user=alice").body());
        assertEquals(loggedIn, expect(200, get(browser, jetty, "account")));
        assertEquals(loggedIn, expect(200, get(browser, tomcat, "account")));

        expect(302, get(browser, jetty, "logout"));
        expect(TO_LOGIN, get(browser, tomcat, "account"));
        expect(TO_LOGIN, get(browser, jetty, "account"));
    }

    @Test
    void logOutEverywhereOnOneNodeEndsTheUsersSessionsOnBoth() throws Exception {
        HttpClient onTomcat = browser();
        HttpClient onJetty = browser();
        get(onTomcat, tomcat, "login?user=bob");
        get(onJetty, jetty, "login?user=bob");
        expect(200, get(onTomcat, jetty, "account"));

        assertEquals("2", expect(200, get(browser(), jetty, "revoke?user=bob")));

        expect(TO_LOGIN, get(onTomcat, tomcat, "account"));
        expect(TO_LOGIN, get(onJetty, jetty, "account"));
    }

    @Test
    void aSessionIdleLongerThanShirosTimeoutIsGoneOnBothNodes() throws Exception {
        HttpClient browser = browser();
        get(browser, jetty, "login?user=alice");
        expect(200, get(browser, tomcat, "account"));

        Thread.sleep(TIMEOUT_MILLIS + 1_500);

        expect(TO_LOGIN, get(browser, tomcat, "account"));
        expect(TO_LOGIN, get(browser, jetty, "account"));
    }

    @Test
    void onExpirationFiresOnceAcrossBothNodesForEachIdleSessionAndNeverForOneInUseOrLoggedOut() throws Exception {
        List<String> idle = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            NodeProcess node = i % 2 == 0 ? tomcat : jetty;
            String tag = "idle" + i;
            String user = i % 3 == 0 ? "bob" : "alice";
            get(browser(), node, "login?user=" + user + "&tag=" + tag);
            idle.add(tag + " " + user + " [book from " + node.port() + "]");
        }
        HttpClient loggedOut = browser();
        get(loggedOut, jetty, "login?user=alice&tag=loggedOut");
        expect(302, get(loggedOut, tomcat, "logout"));
        HttpClient inUse = browser();
        get(inUse, tomcat, "login?user=bob&tag=inUse");

        Instant keepUntil = Instant.now().plusMillis(3 * TIMEOUT_MILLIS);
        for (int request = 0; Instant.now().isBefore(keepUntil); request++) {
            expect(200, get(inUse, request % 2 == 0 ? jetty : tomcat, "account"));
            Thread.sleep(TIMEOUT_MILLIS / 4);
        }
        List<String> events = awaitEvents(idle.size(), "idle");
        assertEquals(idle.stream().sorted().toList(), events, "one event per idle session, fleet-wide");
        assertEquals(List.of(), expiredWithTag("inUse"), "no event while the session is in use");

        List<String> afterUse = awaitEvents(1, "inUse");
        assertEquals(List.of("inUse bob [book from " + tomcat.port() + "]"), afterUse);
        Thread.sleep(2_000L * EVENT_DELAY_SECONDS);
        assertEquals(events, expiredWithTag("idle"), "no second event");
        assertEquals(List.of(), expiredWithTag("loggedOut"), "a session that was logged out does not expire");
    }

    /**
     * Issue #27 through the Shiro DAO, whose WAR holds Shiro, the DAO and HBase's shaded client (with the Commons
     * Collections it carries relocated) on the application's own class loader: a gadget chain forged into a logged-in
     * session's cart ran its command on the node that read the cart. Now nothing runs, the login holds, the cart is
     * left out.
     */
    @Test
    void aGadgetChainForgedIntoALoggedInSessionRunsNothingOnEitherNode(Configuration configuration) throws Exception {
        try (HBaseInspector cells = new HBaseInspector(configuration)) {
            for (NodeProcess node : List.of(tomcat, jetty)) {
                CookieManager cookies = new CookieManager();
                HttpClient browser = HttpClient.newBuilder().cookieHandler(cookies).build();
                expect(200, get(browser, node, "login?user=alice"));
                String id = cookies.getCookieStore().getCookies().stream()
                        .filter(cookie -> cookie.getName().equals("SHIROSESSIONID")).findFirst().orElseThrow().getValue();
                Path marker = RelocatedGadgets.markerIn(Path.of("target", "it", "shiro-markers"), "node-" + node.port());
                ForgedState.addAttribute(cells, settings.get("table"), CONTEXT_PATH, id, "cart",
                        ForgedKryo.encode(RelocatedGadgets.priorityQueue(marker)));

                String account = expect(200, get(browser, node, "account"));
                assertFalse(Files.exists(marker), node.url() + " ran the chain's command: " + marker + " exists");
                assertEquals("alice null", account, "the login holds and the forged cart is left out");
            }
        }
    }

    /** Waits until both nodes' {@code onExpiration} events name {@code expected} sessions tagged {@code tagPrefix}. */
    private List<String> awaitEvents(int expected, String tagPrefix) throws Exception {
        Instant deadline = Instant.now().plus(EVENTS_DEADLINE);
        List<String> events = expiredWithTag(tagPrefix);
        while (events.size() < expected && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
            events = expiredWithTag(tagPrefix);
        }
        return events;
    }

    /** The events of both nodes for sessions whose tag starts with {@code tagPrefix}, sorted. */
    private List<String> expiredWithTag(String tagPrefix) throws Exception {
        List<String> events = new ArrayList<>();
        for (NodeProcess node : List.of(tomcat, jetty)) {
            expect(200, get(browser(), node, "expired")).lines().filter(line -> line.startsWith(tagPrefix))
                    .forEach(events::add);
        }
        events.sort(null);
        return events;
    }

    /** One browser: its cookie (SHIROSESSIONID, path /shiro) goes to both nodes, which differ only in port. */
    private static HttpClient browser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    private static HttpResponse<String> get(HttpClient browser, NodeProcess node, String path) throws Exception {
        return browser.send(HttpRequest.newBuilder(node.url().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String expect(int status, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), response.uri() + ": " + response.body());
        return response.body();
    }

    private static Path shiroWar() {
        Path war = Path.of(System.getProperty("shiro.war", "(the shiro.war system property is not set)"));
        if (!Files.isRegularFile(war)) {
            throw new IllegalStateException("The Shiro test WAR " + war + " is missing: build shiro-test-webapp first");
        }
        return war;
    }
}
