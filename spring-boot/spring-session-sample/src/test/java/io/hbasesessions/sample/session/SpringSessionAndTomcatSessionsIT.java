package io.hbasesessions.sample.session;

import static io.hbasesessions.testing.SpringSecurityForms.logIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.BootApplicationNode;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProgram;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #32: a Spring Session application and a Tomcat application that share a key scope on purpose
 * ({@link SharedWithContainersConfiguration}) share their users' sessions, over HTTP: the shop (Spring Session, this
 * Boot line's server) and the test WAR on a Tomcat node with the Tomcat adapter, both at key scope {@code /app}. Each
 * reads what the other wrote and keeps what it cannot read (the login's classes are the shop's, the WAR's notes the
 * WAR's). Spring Session's cookie holds the id in Base64, the container's as it is: the test carries the id across.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringSessionAndTomcatSessionsIT {

    private static final String KEY_SCOPE = "/app";
    private static final String COOKIE = "JSESSIONID";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    private static final Path LOGS = Path.of("target", "shared-nodes");

    private BootApplicationNode shop;
    private NodeProcess tomcat;

    @BeforeAll
    void startTheShopAndATomcatNode(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        Map<String, String> properties = BootApplicationNode.storeProperties(hbase, namespace::table);
        properties.put("hbase.sessions.key-scope", KEY_SCOPE);
        properties.put("spring.profiles.active", "shared-with-containers");
        shop = BootApplicationNode.start(LOGS.resolve("shop.log"), SessionSampleApplication.class.getName(), properties);
        tomcat = NodeProcess.builder(NodeProgram.TOMCAT_10_1)
                .war(Path.of(System.getProperty("test.war")))
                .contextPath(KEY_SCOPE)
                .storeSetting("zookeeperQuorum", properties.get("hbase.sessions.zookeeper-quorum"))
                .storeSetting("table", properties.get("hbase.sessions.table"))
                .storeSetting("indexTable", properties.get("hbase.sessions.index-table"))
                .storeSetting("regions", "1")
                .workDirectory(LOGS.resolve("tomcat"))
                .log(LOGS.resolve("tomcat.log"))
                .start();
        shop.awaitStarted(START_TIMEOUT);
        tomcat.awaitReady(START_TIMEOUT);
    }

    @AfterAll
    void stopBoth() throws InterruptedException {
        if (shop != null) {
            shop.stop();
        }
        if (tomcat != null) {
            tomcat.stop();
        }
    }

    @Test
    void aSessionOfTheShopIsTheTomcatApplicationsAndKeepsItsLoginThroughTomcatsWrites() {
        Browser browser = new Browser(COOKIE);
        logIn(browser, shop, shop, "alice");
        String csrf = browser.get(shop.url("/account")).expect(200).value("csrf");
        browser.post(shop.url("/cart"), Map.of("sku", "mug", "_csrf", csrf)).expect(302);

        Browser onTomcat = Browser.withCookie(COOKIE, idOf(browser.cookie()));
        assertEquals("{mug=1}", onTomcat.get(session(), "op=get").expect(200).attribute("cart"));
        onTomcat.get(session(), "op=put&name=note&value=from-tomcat").expect(200);

        Browser.Answer account = browser.get(shop.url("/account")).expect(200);
        assertEquals("alice", account.value("user"), "Tomcat's write kept the login it cannot read");
        browser.post(shop.url("/cart"), Map.of("sku", "mug", "_csrf", account.value("csrf"))).expect(302);
        Browser.Answer afterTheShop = onTomcat.get(session(), "op=get").expect(200);
        assertEquals("{mug=2}", afterTheShop.attribute("cart"));
        assertEquals("Note(from-tomcat)", afterTheShop.attribute("note"), "the shop's write kept the note it cannot read");
    }

    @Test
    void aSessionTomcatMadeIsContinuedByTheShopThroughItsLoginUnderANewId() {
        Browser onTomcat = new Browser(COOKIE);
        onTomcat.get(session(), "op=put&name=note&value=made-on-tomcat").expect(200);
        String tomcatId = onTomcat.cookie();

        Browser browser = Browser.withCookie(COOKIE, Base64.getEncoder().encodeToString(
                tomcatId.getBytes(StandardCharsets.UTF_8)));
        logIn(browser, shop, shop, "bob");
        String loggedInId = idOf(browser.cookie());
        assertNotEquals(tomcatId, loggedInId, "Spring Security gives the session a new id at login");

        Browser.Answer continued = Browser.withCookie(COOKIE, loggedInId).get(session(), "op=get").expect(200);
        assertEquals("Note(made-on-tomcat)", continued.attribute("note"));
        assertFalse(Browser.withCookie(COOKIE, tomcatId).get(session(), "op=get").expect(200).hasSession(),
                "the id from before the login opens nothing");
    }

    private URI session() {
        return tomcat.url().resolve("session");
    }

    /** The id a Spring Session cookie holds. */
    private static String idOf(String springSessionCookie) {
        return new String(Base64.getDecoder().decode(springSessionCookie), StandardCharsets.UTF_8);
    }
}
