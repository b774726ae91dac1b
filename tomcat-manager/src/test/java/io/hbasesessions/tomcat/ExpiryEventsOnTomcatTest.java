package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.Browser;
import java.net.URI;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code expiryEvents} on one Tomcat over HTTP: an idle session gets its {@code sessionDestroyed} and
 * {@code valueUnbound} from the manager's background sweep (the context's 10 s background delay shortened
 * by the manager), a session kept alive by requests gets none. The fleet-wide rules are {@code ExpiryEventsIT}'s.
 */
@ExtendWith(HBaseExtension.class)
class ExpiryEventsOnTomcatTest {

    @Test
    void anIdleSessionIsDestroyedWithItsEventsAndAnActiveOneIsNot(EmbeddedHBase hbase, TestNamespace namespace,
            @TempDir Path directory) throws InterruptedException {
        try (TomcatNode node = new TomcatNode("e", directory, () -> {
            HBaseSessionManager manager = TestManagers.manager(hbase, namespace);
            manager.setProperty("expiryEvents", "true");
            manager.setProperty("expiryEventDelaySeconds", "2");
            manager.setProperty("expiryTable", namespace.table("session_expiry"));
            manager.setProperty("touchIntervalSeconds", "0");
            return manager;
        })) {
            URI servlet = node.start().servlet();
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

    @Test
    void writesWithinOneBucketAddNoEntryToTheExpiryIndex(EmbeddedHBase hbase, TestNamespace namespace,
            @TempDir Path directory) {
        try (TomcatNode node = new TomcatNode("w", directory, () -> {
            HBaseSessionManager manager = TestManagers.manager(hbase, namespace);
            manager.setProperty("expiryEvents", "true");
            manager.setProperty("expiryTable", namespace.table("session_expiry"));
            return manager;
        })) {
            URI servlet = node.start().servlet();
            Browser browser = new Browser();
            browser.get(servlet, "op=put&name=note&value=0").expect(200);
            for (int i = 1; i <= 40; i++) {
                browser.get(servlet, "op=put&name=note&value=" + i).expect(200);
                browser.get(servlet, "op=get").expect(200);
            }
            StoreCounters counters = node.hbaseManager().counters();

            assertEquals(41, counters.get(StoreCounter.CREATES) + counters.get(StoreCounter.FULL_WRITES));
            // The default 60 s event delay makes 30 s buckets: 40 writes within seconds cross at most one boundary.
            long entries = counters.get(StoreCounter.EXPIRY_ENTRIES);
            assertTrue(entries >= 1 && entries <= 2, entries + " expiry index entries for one session's 41 writes");
        }
    }

    private static long events(URI servlet, String event) {
        return Long.parseLong(new Browser().get(servlet, "op=events").value(event));
    }
}
