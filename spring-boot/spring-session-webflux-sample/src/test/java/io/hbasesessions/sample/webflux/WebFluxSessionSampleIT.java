package io.hbasesessions.sample.webflux;

import static io.hbasesessions.testing.SpringSecurityForms.assertLoggedOut;
import static io.hbasesessions.testing.SpringSecurityForms.logIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.testing.AbstractSpringSessionSampleIT;
import io.hbasesessions.testing.BootApplicationNode;
import io.hbasesessions.testing.Browser;
import org.junit.jupiter.api.Test;

/**
 * Issue #32: the WebFlux sample on two JVMs (Reactor Netty, Boot 4.0, Spring Session 4) sharing one HBase through the
 * reactive repository; the suite's login, cart, logout and forged cookies, and {@code maximumSessions(1)} holding
 * across the nodes through Spring Session's reactive session registry (the reactive {@code findByPrincipalName}).
 */
class WebFluxSessionSampleIT extends AbstractSpringSessionSampleIT {

    @Override
    protected Class<?> application() {
        return WebFluxSessionSampleApplication.class;
    }

    /** WebFlux's session cookie, as Spring names it. */
    @Override
    protected String cookieName() {
        return "SESSION";
    }

    @Test
    void bothNodesServeOnReactorNettyWithSpringSession4() {
        for (BootApplicationNode node : bothNodes()) {
            Browser.Answer home = newBrowser().get(node.url("/")).expect(200);
            assertTrue(home.value("server").startsWith("reactor.netty."), node + ": " + home.body());
            assertTrue(home.value("springSession").startsWith("4.0."), node + ": " + home.body());
        }
    }

    @Test
    void maximumSessionsOfOneHoldsAcrossTheNodesAndFindByPrincipalNameSeesBoth() {
        Browser first = newBrowser();
        logIn(first, one, one, "dora");
        assertEquals("1", first.get(two.url("/account")).expect(200).value("sessions"));

        // The login on node two finds the session node one made (findByPrincipalName of the reactive repository) and
        // ends it: the older browser is logged out on both nodes, the newer one has the only session.
        Browser second = newBrowser();
        logIn(second, two, two, "dora");
        for (BootApplicationNode node : bothNodes()) {
            assertLoggedOut(first, node);
            Browser.Answer account = second.get(node.url("/account")).expect(200);
            assertEquals("dora", account.value("user"));
            assertEquals("1", account.value("sessions"));
        }
    }
}
