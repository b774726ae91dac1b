package io.hbasesessions.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreHealth;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.TestStores;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HBase that was serving and stops: {@code hbase-sessions health} and an open store's
 * {@link SessionStore#checkHealth()} (what the MBean's {@code checkHealth} calls) both answer "unhealthy"
 * within {@code operationTimeoutMillis}. (That the same store serves again once HBase is back is
 * {@code HBaseDownTest}'s.) An HBase of its own: the shared one must not stop.
 */
class HealthWhenHBaseStopsTest {

    private static final long TIMEOUT_MILLIS = 1_500;
    /** A behaviour bound, not a benchmark: generous for a loaded 2-core machine. */
    private static final long MARGIN_MILLIS = 2_500;

    @Test
    void healthTurnsUnhealthyWithinTheTimeoutWhenHBaseStops(@TempDir Path data) {
        EmbeddedHBase own = EmbeddedHBase.builder().dataDirectory(data).startTimeout(Duration.ofSeconds(120)).build()
                .start();
        String quorum = own.zookeeperQuorum() + ":" + own.zookeeperPort();
        StoreSettings settings = StoreSettings.builder().set(Setting.ZOOKEEPER_QUORUM, quorum)
                .set(Setting.KEY_SCOPE, "/shop").set(Setting.REGIONS, 1)
                .set(Setting.OPERATION_TIMEOUT_MILLIS, TIMEOUT_MILLIS).build();
        String[] health = {"health", "--zookeeper-quorum", quorum, "--operation-timeout-millis",
            String.valueOf(TIMEOUT_MILLIS)};
        try (SessionStore store = TestStores.open(settings)) {
            assertTrue(store.checkHealth().healthy(), store.checkHealth().toString());
            assertEquals(0, run(health));

            own.stop();
            long startNanos = System.nanoTime();
            StoreHealth down = store.checkHealth();
            long storeMillis = (System.nanoTime() - startNanos) / 1_000_000;
            assertFalse(down.healthy());
            assertTrue(down.toString().startsWith("unhealthy: HBase"), down.toString());
            startNanos = System.nanoTime();
            int exitCode = run(health);
            long cliMillis = (System.nanoTime() - startNanos) / 1_000_000;
            System.out.println("HBase stopped, operationTimeoutMillis=" + TIMEOUT_MILLIS + ": the store's checkHealth "
                    + "answered in " + storeMillis + " ms (" + down + "), hbase-sessions health in " + cliMillis + " ms");
            assertEquals(1, exitCode);
            assertTrue(storeMillis <= TIMEOUT_MILLIS + MARGIN_MILLIS, storeMillis + " ms");
            assertTrue(cliMillis <= TIMEOUT_MILLIS + MARGIN_MILLIS, cliMillis + " ms");
        } finally {
            own.stop();
        }
    }

    private static int run(String... args) {
        return AdminMain.run(args, new ByteArrayInputStream(new byte[0]), new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true));
    }
}
