package io.hbasesessions.sample.webflux;

import static io.hbasesessions.testing.SpringSecurityForms.logIn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.testing.AbstractSpringSessionSampleIT;
import io.hbasesessions.testing.BootApplicationNode;
import io.hbasesessions.testing.Browser;
import org.junit.jupiter.api.Test;

/**
 * Issue #32: the WebFlux sample on two JVMs (Reactor Netty, Boot 4.0, Spring Session 4) sharing one HBase through the
 * reactive repository; the suite's login, cart, logout and forged cookies, and {@code findByPrincipalName} of the
 * reactive repository seeing a user's sessions made on both nodes.
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
    void findByPrincipalNameSeesTheUsersSessionsOfBothNodes() {
        Browser first = newBrowser();
        logIn(first, one, one, "dora");
        Browser second = newBrowser();
        logIn(second, two, two, "dora");
        assertEquals("2", first.get(two.url("/account")).expect(200).value("sessions"));
        assertEquals("2", second.get(one.url("/account")).expect(200).value("sessions"));
    }
}
