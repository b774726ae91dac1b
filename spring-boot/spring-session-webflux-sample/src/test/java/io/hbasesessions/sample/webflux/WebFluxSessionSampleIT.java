package io.hbasesessions.sample.webflux;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.AbstractSpringSessionSampleIT;
import io.hbasesessions.testing.BootApplicationNode;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.SampleNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue #32: the WebFlux sample on two JVMs (Reactor Netty, Boot 4.0, Spring Session 4) sharing one HBase through the
 * reactive repository: the suite, {@code maximumSessions(1)} through Spring Session's reactive session registry (the
 * reactive {@code findByPrincipalName}).
 */
class WebFluxSessionSampleIT extends AbstractSpringSessionSampleIT {

    @Override
    protected List<BootApplicationNode> startTwoNodes(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        return BootApplicationNode.startTwo(WebFluxSessionSampleApplication.class, hbase, namespace::table);
    }

    /** WebFlux's session cookie, as Spring names it. */
    @Override
    protected String cookieName() {
        return "SESSION";
    }

    @Test
    void bothNodesServeOnReactorNettyWithSpringSession4() {
        for (SampleNode node : bothNodes()) {
            Browser.Answer home = newBrowser().get(node.url("/")).expect(200);
            assertTrue(home.value("server").startsWith("reactor.netty."), node + ": " + home.body());
            assertTrue(home.value("springSession").startsWith("4.0."), node + ": " + home.body());
        }
    }
}
