package io.hbasesessions.sample.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.AbstractSpringSessionSampleIT;
import io.hbasesessions.testing.BootApplicationNode;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.SampleNode;
import io.hbasesessions.testing.SpringSecurityForms;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * Issue #32: the servlet sample on two JVMs sharing one HBase through Spring Session (on Undertow with Boot 3.5, on
 * Tomcat with Boot 4.0, where the same spring-session-hbase jar runs on Spring Session 4): the suite, on the server
 * and the Spring Session version of the Boot line.
 */
class SpringSessionSampleIT extends AbstractSpringSessionSampleIT {

    @Override
    protected List<BootApplicationNode> startTwoNodes(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        return BootApplicationNode.startTwo(SessionSampleApplication.class, hbase, namespace::table);
    }

    /** The sample names Spring Session's cookie as a container's session cookie. */
    @Override
    protected String cookieName() {
        return "JSESSIONID";
    }

    @Test
    void bothNodesRunTheServerAndSpringSessionOfThisBootLine() {
        boolean boot3 = SpringBootVersion.getVersion().startsWith("3.");
        for (SampleNode node : bothNodes()) {
            Browser.Answer home = newBrowser().get(node.url("/")).expect(200);
            assertTrue(home.value("server").startsWith(boot3 ? "Undertow" : "Apache Tomcat/11"), node + ": " + home.body());
            assertTrue(home.value("springSession").startsWith(boot3 ? "3.5." : "4.0."), node + ": " + home.body());
        }
    }

    /**
     * A REST client sends the id in {@code X-Auth-Token} ({@link CookieOrTokenSessionIds}): the session a browser logged
     * in on one node is the client's on the other; forged, overlong and mangled tokens open nothing and break nothing.
     */
    @Test
    void aTokenHeaderOpensTheSessionOnEitherNodeAndForgedTokensOpenNothing() {
        Browser alice = newBrowser();
        SpringSecurityForms.logIn(alice, one, one, "alice");
        // Spring Session's cookie holds the id in Base64; the header holds it as it is.
        String id = new String(Base64.getDecoder().decode(alice.cookie()), StandardCharsets.UTF_8);
        for (SampleNode node : bothNodes()) {
            Browser.Answer account = withToken(node, id);
            assertEquals(200, account.status(), account.body());
            assertEquals("alice", account.value("user"));
        }
        for (String forged : new String[] {"forged", "x".repeat(4_000), id + "x", id.toUpperCase(Locale.ROOT), "%00%ff",
            "../../" + id, alice.cookie()}) {
            for (SampleNode node : bothNodes()) {
                Browser.Answer answer = withToken(node, forged);
                assertEquals(302, answer.status(), node + " answered a forged token: " + answer.body());
                assertTrue(String.valueOf(answer.location()).endsWith("/login"), String.valueOf(answer.location()));
            }
        }
        assertEquals("alice", alice.get(two.url("/account")).expect(200).value("user"));
    }

    private Browser.Answer withToken(SampleNode node, String token) {
        return new Browser(cookieName()).get(node.url("/account"), "", Map.of("X-Auth-Token", token));
    }

    /** Spring Security's servlet {@code ConcurrentSessionFilter} tells the older browser, then logs it out. */
    @Override
    protected void theOlderSessionsNextRequest(Browser older) {
        Browser.Answer expired = older.get(one.url("/account")).expect(200);
        assertTrue(expired.body().contains("This session has been expired"), expired.body());
    }
}
