package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.IdleAndActiveSessions;
import java.net.URI;
import java.time.Duration;
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
            IdleAndActiveSessions.Outcome outcome = IdleAndActiveSessions.run(servlet, Duration.ofSeconds(9));

            assertEquals(1, outcome.destroyed(), "exactly the idle session was destroyed");
            assertEquals(1, outcome.unbound(), "its listening attribute was unbound");
            assertEquals("none", outcome.idleSessionAfterwards());
            assertEquals("ListeningNote(active)", outcome.activeNoteAfterwards());
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
}
