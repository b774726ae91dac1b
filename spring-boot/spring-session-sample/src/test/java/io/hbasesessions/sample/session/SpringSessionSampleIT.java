package io.hbasesessions.sample.session;

import static io.hbasesessions.testing.SpringSecurityForms.assertLoggedOut;
import static io.hbasesessions.testing.SpringSecurityForms.logIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.testing.AbstractSpringSessionSampleIT;
import io.hbasesessions.testing.BootApplicationNode;
import io.hbasesessions.testing.Browser;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootVersion;

/**
 * Issue #32: the servlet sample on two JVMs sharing one HBase through Spring Session (on Undertow with Boot 3.5, on
 * Tomcat with Boot 4.0, where the same spring-session-hbase jar runs on Spring Session 4); the suite's login, cart,
 * logout and forged cookies, and {@code maximumSessions(1)} holding across the nodes (a login on one finds and ends
 * the user's session made on the other).
 */
class SpringSessionSampleIT extends AbstractSpringSessionSampleIT {

    @Override
    protected Class<?> application() {
        return SessionSampleApplication.class;
    }

    /** The sample names Spring Session's cookie as a container's session cookie. */
    @Override
    protected String cookieName() {
        return "JSESSIONID";
    }

    @Test
    void bothNodesRunTheServerAndSpringSessionOfThisBootLine() {
        boolean boot3 = SpringBootVersion.getVersion().startsWith("3.");
        for (BootApplicationNode node : bothNodes()) {
            Browser.Answer home = newBrowser().get(node.url("/")).expect(200);
            assertTrue(home.value("server").startsWith(boot3 ? "Undertow" : "Apache Tomcat/11"), node + ": " + home.body());
            assertTrue(home.value("springSession").startsWith(boot3 ? "3.5." : "4.0."), node + ": " + home.body());
        }
    }

    @Test
    void maximumSessionsOfOneHoldsAcrossTheNodesAndFindByPrincipalNameSeesBoth() {
        Browser first = newBrowser();
        logIn(first, one, one, "bob");
        assertEquals("1", first.get(two.url("/account")).expect(200).value("sessions"));

        // The login on node two finds the session node one made (findByPrincipalName) and marks it expired; the
        // older browser's next request, on node one, is told so and logged out, on both nodes.
        Browser second = newBrowser();
        logIn(second, two, two, "bob");
        Browser.Answer expired = first.get(one.url("/account")).expect(200);
        assertTrue(expired.body().contains("This session has been expired"), expired.body());
        for (BootApplicationNode node : bothNodes()) {
            assertLoggedOut(first, node);
            Browser.Answer account = second.get(node.url("/account")).expect(200);
            assertEquals("bob", account.value("user"));
            assertEquals("1", account.value("sessions"));
        }
    }
}
