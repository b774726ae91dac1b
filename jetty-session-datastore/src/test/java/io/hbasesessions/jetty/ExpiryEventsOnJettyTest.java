package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import java.net.URI;
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
            Browser idle = new Browser();
            idle.get(servlet, "op=listen&name=note&value=idle").expect(200);
            idle.get(servlet, "op=timeout&seconds=2").expect(200);
            Browser active = new Browser();
            active.get(servlet, "op=listen&name=note&value=active").expect(200);
            active.get(servlet, "op=timeout&seconds=2").expect(200);
            long destroyed = events(servlet, "destroyed");
            long unbound = events(servlet, "unbound");

            long until = System.nanoTime() + 9_000_000_000L;
            while (System.nanoTime() < until) {
                active.get(servlet, "op=get").expect(200);
                Thread.sleep(300);
            }

            assertEquals(1, events(servlet, "destroyed") - destroyed, "exactly the idle session was destroyed");
            assertEquals(1, events(servlet, "unbound") - unbound, "its listening attribute was unbound");
            assertEquals("none", Browser.withCookie(idle.cookie()).get(servlet, "op=get").value("id"));
            assertEquals("ListeningNote(active)", active.get(servlet, "op=get").attribute("note"));
        }
    }

    private static long events(URI servlet, String event) {
        return Long.parseLong(new Browser().get(servlet, "op=events").value(event));
    }
}
