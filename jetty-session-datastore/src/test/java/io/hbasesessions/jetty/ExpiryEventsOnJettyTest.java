package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.IdleAndActiveSessions;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code expiryEvents} on one Jetty over HTTP: an idle session gets its {@code sessionDestroyed} and
 * {@code valueUnbound} through Jetty's own scavenger (whose 600 s house-keeper interval the store shortens),
 * a session kept alive by requests gets none. The fleet-wide rules are {@code ExpiryEventsIT}'s.
 */
@ExtendWith(HBaseExtension.class)
class ExpiryEventsOnJettyTest {

    @Test
    void anIdleSessionIsDestroyedWithItsEventsAndAnActiveOneIsNot(EmbeddedHBase hbase, TestNamespace namespace)
            throws InterruptedException {
        Map<String, String> settings = TestStores.settings(hbase, namespace);
        settings = TestStores.with(settings, "expiryEvents", "true");
        settings = TestStores.with(settings, "expiryEventDelaySeconds", "2");
        settings = TestStores.with(settings, "expiryTable", namespace.table("session_expiry"));
        settings = TestStores.with(settings, "touchIntervalSeconds", "0");
        try (JettyNode node = JettyNode.start("e", settings)) {
            URI servlet = node.servlet();
            IdleAndActiveSessions.Outcome outcome = IdleAndActiveSessions.run(servlet, Duration.ofSeconds(9));

            assertEquals(1, outcome.destroyed(), "exactly the idle session was destroyed");
            assertEquals(1, outcome.unbound(), "its listening attribute was unbound");
            assertEquals("none", outcome.idleSessionAfterwards());
            assertEquals("ListeningNote(active)", outcome.activeNoteAfterwards());
        }
    }
}
