package io.hbasesessions.sample.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.ForgedState;
import io.hbasesessions.store.HBaseInspector;
import io.hbasesessions.store.RelocatedGadgets;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.codec.ForgedKryo;
import java.io.IOException;
import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringBootVersion;

/**
 * Issue #18, from the outside: the sample application (Spring MVC, Spring Security form login, the
 * starter and {@code hbase.sessions.*} in its properties, nothing else) started twice, on embedded
 * Tomcat and on embedded Jetty, sharing its sessions through one HBase, over HTTP.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SampleOnTomcatAndJettyIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\"[^>]*value=\"([^\"]+)\"");
    private static final Path LOGS = Path.of("target", "boot-nodes");
    private static final Pattern STARTED_LINE = Pattern.compile("(Tomcat|Jetty) started on port");

    private Map<String, String> properties;
    private BootNode tomcat;
    private BootNode jetty;

    @BeforeAll
    void startTheApplicationOnBothServers(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        properties = new LinkedHashMap<>();
        properties.put("hbase.sessions.zookeeper-quorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        properties.put("hbase.sessions.table", namespace.table("sessions"));
        properties.put("hbase.sessions.index-table", namespace.table("user_sessions"));
        properties.put("hbase.sessions.regions", "1");
        tomcat = new BootNode(BootNode.Server.TOMCAT, LOGS.resolve("tomcat.log"), properties).start();
        // Boot then gives Jetty's session handler a file store of its own, which the starter must replace.
        Map<String, String> persistent = new LinkedHashMap<>(properties);
        persistent.put("server.servlet.session.persistent", "true");
        jetty = new BootNode(BootNode.Server.JETTY, LOGS.resolve("jetty.log"), persistent).start();
        tomcat.awaitStarted(START_TIMEOUT);
        jetty.awaitStarted(START_TIMEOUT);
    }

    @AfterAll
    void stopBoth() throws InterruptedException {
        if (tomcat != null) {
            tomcat.stop();
        }
        if (jetty != null) {
            jetty.stop();
        }
    }

    @Test
    @Order(1)
    void theNodesRunTheBootLineOfThisBuildOnTomcatAndOnJetty() throws Exception {
        String line = SpringBootVersion.getVersion().substring(0, 2);
        assertTrue(value(get(browser(), tomcat, "/"), "server").startsWith("Apache Tomcat/" + (line.equals("3.") ? "10.1" : "11.")),
                "Boot " + SpringBootVersion.getVersion() + " on " + tomcat);
        assertTrue(value(get(browser(), jetty, "/"), "server").startsWith("jetty/12." + (line.equals("3.") ? "0" : "1")),
                "Boot " + SpringBootVersion.getVersion() + " on " + jetty);
    }

    @Test
    @Order(2)
    void aFormLoginOnTomcatIsALoginOnJettyAndTheCartFollowsTheUser() throws Exception {
        HttpClient browser = browser();
        logIn(browser, tomcat, tomcat, "alice");
        HttpResponse<String> onJetty = expect(200, get(browser, jetty, "/account"));
        assertEquals("alice", value(onJetty, "user"));

        // The redirect leaves Jetty right after the cart changes: the next request, on Tomcat, must see it.
        HttpResponse<String> added = post(browser, jetty, "/cart", Map.of("sku", "mug", "_csrf", value(onJetty, "csrf")));
        assertEquals(302, added.statusCode(), added.body());
        HttpResponse<String> onTomcat = expect(200, get(browser, tomcat, "/account"));
        assertEquals("{mug=1}", value(onTomcat, "cart"));
        expect(302, post(browser, tomcat, "/cart", Map.of("sku", "mug", "_csrf", value(onTomcat, "csrf"))));
        assertEquals("{mug=2}", value(expect(200, get(browser, jetty, "/account")), "cart"));
    }

    @Test
    @Order(3)
    void aChangeMadeOnAnAsyncThreadIsOnTheOtherNodeWhenTheAnswerArrives() throws Exception {
        HttpClient browser = browser();
        logIn(browser, jetty, jetty, "bob");
        String csrf = value(expect(200, get(browser, jetty, "/account")), "csrf");
        for (int i = 1; i <= 10; i++) {
            BootNode writer = i % 2 == 0 ? tomcat : jetty;
            BootNode reader = writer == tomcat ? jetty : tomcat;
            assertEquals("{cup=" + i + "}", value(expect(200, post(browser, writer, "/cart/later",
                    Map.of("sku", "cup", "_csrf", csrf))), "cart"));
            assertEquals("{cup=" + i + "}", value(expect(200, get(browser, reader, "/account")), "cart"), "after " + writer);
        }
    }

    @Test
    @Order(4)
    void theLoginFormOfOneNodeCanBePostedToTheOther() throws Exception {
        HttpClient browser = browser();
        logIn(browser, jetty, tomcat, "bob");
        assertEquals("bob", value(expect(200, get(browser, jetty, "/account")), "user"));
        assertEquals("bob", value(expect(200, get(browser, tomcat, "/account")), "user"));
    }

    @Test
    @Order(5)
    void aWrongPasswordIsNoLoginOnEitherNode() throws Exception {
        HttpClient browser = browser();
        String csrf = csrfOfLoginPage(browser, tomcat);
        HttpResponse<String> refused = post(browser, jetty, "/login",
                Map.of("username", "alice", "password", "wrong", "_csrf", csrf));
        assertTrue(refused.headers().firstValue("Location").orElse("").contains("error"), refused.headers().toString());
        assertLoggedOut(browser, tomcat);
        assertLoggedOut(browser, jetty);
    }

    @Test
    @Order(6)
    void logoutOnOneNodeIsALogoutOnTheOther() throws Exception {
        HttpClient browser = browser();
        logIn(browser, tomcat, tomcat, "alice");
        String csrf = value(expect(200, get(browser, jetty, "/account")), "csrf");
        expect(302, post(browser, jetty, "/logout", Map.of("_csrf", csrf)));
        assertLoggedOut(browser, tomcat);
        assertLoggedOut(browser, jetty);
    }

    @Test
    @Order(7)
    void logOutEverywhereThroughTheRevokerBeanEndsEverySessionOfTheUserOnBothNodes() throws Exception {
        HttpClient aliceOnTomcat = browser();
        HttpClient aliceOnJetty = browser();
        HttpClient bob = browser();
        logIn(aliceOnTomcat, tomcat, tomcat, "alice");
        logIn(aliceOnJetty, jetty, jetty, "alice");
        logIn(bob, jetty, jetty, "bob");
        HttpClient admin = browser();
        logIn(admin, tomcat, tomcat, "admin");
        String csrf = value(expect(200, get(admin, tomcat, "/account")), "csrf");

        HttpResponse<String> revoked = expect(200, post(admin, jetty, "/admin/revoke", Map.of("user", "alice", "_csrf", csrf)));

        assertTrue(Integer.parseInt(value(revoked, "revoked")) >= 2, revoked.body());
        for (BootNode node : List.of(tomcat, jetty)) {
            assertLoggedOut(aliceOnTomcat, node);
            assertLoggedOut(aliceOnJetty, node);
            assertEquals("bob", value(expect(200, get(bob, node, "/account")), "user"));
        }
    }

    @Test
    @Order(8)
    void actuatorShowsTheStoresHealthAndItsMeters() throws Exception {
        for (BootNode node : List.of(tomcat, jetty)) {
            HttpResponse<String> health = expect(200, get(browser(), node, "/actuator/health"));
            assertTrue(health.body().matches("(?s).*\"hbaseSessions\":\\{.*\"/\":\\{\"healthy\":true,\"elapsedMillis\".*"),
                    node + ": " + health.body());
            assertFalse(health.body().contains("DOWN"), node + ": " + health.body());

            HttpClient admin = browser();
            logIn(admin, node, node, "admin");
            HttpResponse<String> timer = expect(200, get(admin, node, "/actuator/metrics/hbase.sessions.operation"));
            assertTrue(timer.body().contains("\"operation\""), node + ": " + timer.body());
            HttpResponse<String> loads = expect(200, get(admin, node, "/actuator/metrics/hbase.sessions.loads"));
            assertTrue(loads.body().contains("\"COUNT\""), node + ": " + loads.body());
        }
    }

    /**
     * Issue #27 through the starter, where the application, Spring and this library share one class loader: a gadget
     * chain forged into a logged-in session's cart, of the Commons Collections relocated inside the HBase client the
     * starter brings, ran {@code touch <marker>} on the server that read the cart. Now nothing runs, the login holds,
     * and the cart starts empty.
     */
    @Test
    @Order(8)
    void aRelocatedCommonsCollectionsChainForgedIntoTheCartRunsNothingOnEitherServer(Configuration hbase)
            throws Exception {
        try (HBaseInspector cells = new HBaseInspector(hbase)) {
            for (BootNode node : List.of(tomcat, jetty)) {
                Path marker = RelocatedGadgets.markerIn(LOGS.resolve("markers"), node == tomcat ? "cc4-tomcat" : "cc4-jetty");
                HttpClient browser = loggedInWithAForgedCart(cells, node,
                        ForgedKryo.encode(RelocatedGadgets.priorityQueue(marker.toAbsolutePath())));
                HttpResponse<String> account = expect(200, get(browser, node, "/account"));
                assertFalse(Files.exists(marker), node + " ran the chain's command: " + marker + " exists");
                assertEquals("alice", value(account, "user"), node + ": the login holds");
                assertEquals("{}", value(account, "cart"), node + ": the forged cart is left out");
            }
        }
    }

    /**
     * The same with a chain of Spring's own classes (Spring AOP over Spring's JNDI, {@link SpringGadgets}), which in
     * a Boot application are the application's classes: the server that read the cart made a JNDI lookup at the
     * forger's address (here a socket of this test). Now its non-Serializable parts are refused: nothing connects.
     */
    @Test
    @Order(8)
    void aSpringAopJndiChainForgedIntoTheCartLooksNothingUpOnEitherServer(Configuration hbase) throws Exception {
        try (HBaseInspector cells = new HBaseInspector(hbase); ServerSocket forgersServer = new ServerSocket(0)) {
            AtomicInteger connections = new AtomicInteger();
            Thread accepting = new Thread(() -> {
                while (!forgersServer.isClosed()) {
                    try (Socket connection = forgersServer.accept()) {
                        connections.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            }, "forgers-ldap-server");
            accepting.start();
            for (BootNode node : List.of(tomcat, jetty)) {
                HttpClient browser = loggedInWithAForgedCart(cells, node, ForgedKryo.encode(
                        SpringGadgets.lookupOnRebuild("ldap://127.0.0.1:" + forgersServer.getLocalPort() + "/gadget")));
                HttpResponse<String> account = expect(200, get(browser, node, "/account"));
                assertEquals(0, connections.get(), node + " made the JNDI lookup the forged cart asked for");
                assertEquals("alice", value(account, "user"), node + ": the login holds");
                assertEquals("{}", value(account, "cart"), node + ": the forged cart is left out");
            }
        }
    }

    /** Alice logged in on {@code node}, whose session's cart is then replaced by {@code cart}, as a forger would. */
    private HttpClient loggedInWithAForgedCart(HBaseInspector cells, BootNode node, byte[] cart) throws Exception {
        HttpClient browser = browser();
        logIn(browser, node, node, "alice");
        String id = sessionCookie(browser);
        ForgedState.addAttribute(cells, properties.get("hbase.sessions.table"), "/", SessionIds.withoutRoute(id), "cart",
                cart);
        return browser;
    }

    @Test
    @Order(9)
    void aLoginSurvivesARestartOfBothNodes() throws Exception {
        HttpClient browser = browser();
        logIn(browser, jetty, jetty, "alice");
        String csrf = value(expect(200, get(browser, tomcat, "/account")), "csrf");
        expect(302, post(browser, tomcat, "/cart", Map.of("sku", "lamp", "_csrf", csrf)));

        tomcat.stop();
        jetty.stop();
        tomcat.start();
        jetty.start();
        tomcat.awaitStarted(START_TIMEOUT);
        jetty.awaitStarted(START_TIMEOUT);

        for (BootNode node : List.of(jetty, tomcat)) {
            HttpResponse<String> account = expect(200, get(browser, node, "/account"));
            assertEquals("alice", value(account, "user"));
            assertEquals("{lamp=1}", value(account, "cart"));
        }
    }

    @Test
    @Order(10)
    void aMisspeltOrInvalidPropertyStopsTheStartWithTheStoresExplanation() throws Exception {
        BootNode misspelt = new BootNode(BootNode.Server.JETTY, LOGS.resolve("misspelt.log"), properties);
        String output = misspelt.startExpectingExit(List.of("--hbase.sessions.touch-intervall-seconds=30"), START_TIMEOUT);
        assertNotEquals(0, misspelt.exitCode());
        assertTrue(output.contains("APPLICATION FAILED TO START"), output);
        assertTrue(output.contains("Unknown HBase session property hbase.sessions.touch-intervall-seconds"), output);
        assertTrue(output.contains("hbase.sessions.touch-interval-seconds"), output);

        BootNode invalid = new BootNode(BootNode.Server.TOMCAT, LOGS.resolve("invalid.log"), properties);
        output = invalid.startExpectingExit(List.of("--hbase.sessions.locking-mode=sometimes"), START_TIMEOUT);
        assertNotEquals(0, invalid.exitCode());
        assertTrue(output.contains("lockingMode"), output);
        assertTrue(output.contains("sometimes"), output);
    }

    @Test
    @Order(11)
    void withHBaseUnreachableTheApplicationDoesNotStartOnEitherServer() throws Exception {
        Map<String, String> unreachable = new LinkedHashMap<>(properties);
        unreachable.put("hbase.sessions.zookeeper-quorum", "127.0.0.1:" + closedPort());
        unreachable.put("hbase.sessions.operation-timeout-millis", "2000");
        for (BootNode.Server server : BootNode.Server.values()) {
            BootNode node = new BootNode(server, LOGS.resolve("unreachable-" + server + ".log"), unreachable);
            String output = node.startExpectingExit(List.of(), START_TIMEOUT);
            assertNotEquals(0, node.exitCode(), server.toString());
            assertTrue(output.contains("HBase failed connecting (zookeeperQuorum=127.0.0.1:"), server + ": " + output);
            assertFalse(STARTED_LINE.matcher(output).find(), server + " must not serve without its sessions: " + output);
        }
    }

    @Test
    @Order(12)
    void withTheStarterTurnedOffTheServerKeepsItsOwnSessions() throws Exception {
        Map<String, String> off = new LinkedHashMap<>(properties);
        off.put("hbase.sessions.enabled", "false");
        BootNode own = new BootNode(BootNode.Server.JETTY, LOGS.resolve("disabled.log"), off).start();
        try {
            own.awaitStarted(START_TIMEOUT);
            HttpClient browser = browser();
            logIn(browser, own, own, "alice");
            assertEquals("alice", value(expect(200, get(browser, own, "/account")), "user"));
            assertLoggedOut(browser, tomcat);
            HttpResponse<String> health = expect(200, get(browser(), own, "/actuator/health"));
            assertFalse(health.body().contains("hbaseSessions"), health.body());
        } finally {
            own.stop();
        }
    }

    /**
     * {@code sticky-sessions} through the starter: each server takes {@code hbase.sessions.route} as its route, a user
     * who stays on one node is served from its copy, one who moves gets the new node's route, and a revocation on the
     * node the user left logs the user out where the user is, within the stated bound (one second).
     */
    @Test
    @Order(13)
    void withStickySessionsEachServerTakesItsRouteAndServesItsUsersFromItsCopies() throws Exception {
        Map<String, String> sticky = new LinkedHashMap<>(properties);
        sticky.put("hbase.sessions.sticky-sessions", "true");
        Map<String, String> onTomcat = new LinkedHashMap<>(sticky);
        onTomcat.put("hbase.sessions.route", "boot1");
        Map<String, String> onJetty = new LinkedHashMap<>(sticky);
        onJetty.put("hbase.sessions.route", "boot2");
        BootNode stickyTomcat = new BootNode(BootNode.Server.TOMCAT, LOGS.resolve("sticky-tomcat.log"), onTomcat).start();
        BootNode stickyJetty = new BootNode(BootNode.Server.JETTY, LOGS.resolve("sticky-jetty.log"), onJetty).start();
        try {
            stickyTomcat.awaitStarted(START_TIMEOUT);
            stickyJetty.awaitStarted(START_TIMEOUT);
            HttpClient admin = browser();
            logIn(admin, stickyTomcat, stickyTomcat, "admin");
            HttpClient bob = browser();
            logIn(bob, stickyTomcat, stickyTomcat, "bob");
            assertTrue(sessionCookie(bob).endsWith(".boot1"), sessionCookie(bob));

            long hits = count(admin, stickyTomcat, "hbase.sessions.sticky.hits");
            for (int i = 0; i < 10; i++) {
                assertEquals("bob", value(expect(200, get(bob, stickyTomcat, "/account")), "user"));
            }
            // The meters of one store share a snapshot for a second (SessionStoreMetrics).
            Thread.sleep(1_100);
            long answered = count(admin, stickyTomcat, "hbase.sessions.sticky.hits") - hits;
            assertTrue(answered >= 10, "Tomcat's copy answered " + answered + " of 10; misses "
                    + count(admin, stickyTomcat, "hbase.sessions.sticky.misses") + ", errors "
                    + count(admin, stickyTomcat, "hbase.sessions.errors"));

            // The balancer moves bob to the other server: it reads HBase, takes the session and gives it its route.
            assertEquals("bob", value(expect(200, get(bob, stickyJetty, "/account")), "user"));
            assertTrue(sessionCookie(bob).endsWith(".boot2"), sessionCookie(bob));

            String csrf = value(expect(200, get(admin, stickyTomcat, "/account")), "csrf");
            expect(200, post(admin, stickyTomcat, "/admin/revoke", Map.of("user", "bob", "_csrf", csrf)));
            Thread.sleep(1_100);
            assertLoggedOut(bob, stickyJetty);
        } finally {
            stickyTomcat.stop();
            stickyJetty.stop();
        }
    }

    private static String sessionCookie(HttpClient browser) {
        return ((CookieManager) browser.cookieHandler().orElseThrow()).getCookieStore().getCookies().stream()
                .filter(cookie -> cookie.getName().equals("JSESSIONID")).findFirst().orElseThrow().getValue();
    }

    /** A counter of the node's store, as Boot's actuator shows it to an administrator. */
    private static long count(HttpClient admin, BootNode node, String meter) throws Exception {
        String body = expect(200, get(admin, node, "/actuator/metrics/" + meter)).body();
        Matcher count = Pattern.compile("\\{\"statistic\":\"COUNT\",\"value\":([0-9.E]+)\\}").matcher(body);
        assertTrue(count.find(), node + ": " + body);
        return (long) Double.parseDouble(count.group(1));
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void logIn(HttpClient browser, BootNode formNode, BootNode postNode, String user) throws Exception {
        String csrf = csrfOfLoginPage(browser, formNode);
        HttpResponse<String> answer = post(browser, postNode, "/login",
                Map.of("username", user, "password", user + "-password", "_csrf", csrf));
        assertEquals(302, answer.statusCode(), answer.body());
        String location = answer.headers().firstValue("Location").orElse("");
        assertFalse(location.contains("error"), user + " was refused: " + location);
    }

    private String csrfOfLoginPage(HttpClient browser, BootNode node) throws Exception {
        HttpResponse<String> page = expect(200, get(browser, node, "/login"));
        Matcher csrf = CSRF_INPUT.matcher(page.body());
        assertTrue(csrf.find(), page.body());
        return csrf.group(1);
    }

    private void assertLoggedOut(HttpClient browser, BootNode node) throws Exception {
        HttpResponse<String> account = get(browser, node, "/account");
        assertEquals(302, account.statusCode(), node + ": " + account.body());
        assertTrue(account.headers().firstValue("Location").orElse("").endsWith("/login"), node + ": " + account.headers());
    }

    private static HttpClient browser() {
        return HttpClient.newBuilder().cookieHandler(new CookieManager()).build();
    }

    private static HttpResponse<String> get(HttpClient browser, BootNode node, String path) throws Exception {
        return browser.send(HttpRequest.newBuilder(node.url(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(HttpClient browser, BootNode node, String path, Map<String, String> form)
            throws Exception {
        String body = form.entrySet().stream()
                .map(field -> field.getKey() + "=" + URLEncoder.encode(field.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        return browser.send(HttpRequest.newBuilder(node.url(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> expect(int status, HttpResponse<String> response) {
        assertEquals(status, response.statusCode(), response.uri() + ": " + response.body());
        return response;
    }

    /** One {@code name=value} line of a page of the sample. */
    private static String value(HttpResponse<String> page, String name) {
        return page.body().lines().filter(line -> line.startsWith(name + "="))
                .map(line -> line.substring(name.length() + 1)).findFirst()
                .orElseThrow(() -> new AssertionError("No " + name + " on " + page.uri() + ": " + page.body()));
    }
}
