package io.hbasesessions.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreOperation;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The binder on a real Prometheus registry and real stores on the embedded HBase: the stores' counters and
 * latencies scraped under their JMX names, for stores opened before and after binding, and gone with their store.
 */
@ExtendWith(HBaseExtension.class)
class SessionStoreMetricsTest {

    /** The binder reads a store at most once a second: wait that long before comparing. */
    private static final long SNAPSHOT_MILLIS = 1_100;

    @Test
    void everyStoresCountersAndLatenciesAreScrapedUntilItCloses(EmbeddedHBase hbase, TestNamespace namespace)
            throws Exception {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try (SessionStore openedBefore = open(hbase, namespace, "/before", Container.JETTY);
                SessionStoreMetrics metrics = new SessionStoreMetrics(Tags.of("node", "test-node"))) {
            metrics.bindTo(prometheus);
            SessionStore openedAfter = open(hbase, namespace, "/after", Container.TOMCAT);
            for (int i = 0; i < 3; i++) {
                String id = createdIn(openedAfter);
                openedAfter.load(id).orElseThrow();
            }
            openedAfter.load("missing-" + UUID.randomUUID());
            Thread.sleep(SNAPSHOT_MILLIS);

            assertEquals(4.0, counter(prometheus, "hbase.sessions.loads", "/after").count());
            assertEquals(1.0, counter(prometheus, "hbase.sessions.load.misses", "/after").count());
            assertEquals(openedAfter.counters().get(StoreCounter.BYTES_WRITTEN),
                    counter(prometheus, "hbase.sessions.bytes.written", "/after").count());
            FunctionTimer loads = prometheus.find("hbase.sessions.operation").tags("keyScope", "/after", "operation",
                    "load").functionTimer();
            assertEquals(4.0, loads.count());
            assertEquals(openedAfter.latencies().get(StoreOperation.LOAD).totalMillis(),
                    loads.totalTime(TimeUnit.MILLISECONDS), 1e-6);
            assertEquals(3.0, prometheus.find("hbase.sessions.operation").tags("keyScope", "/after", "operation",
                    "create").functionTimer().count());
            assertEquals(0.0, counter(prometheus, "hbase.sessions.loads", "/before").count());

            String scrape = prometheus.scrape();
            assertTrue(scrape.contains("hbase_sessions_loads_total{container=\"tomcat\",keyScope=\"/after\","
                    + "node=\"test-node\"} 4.0"), scrape);
            assertTrue(scrape.contains("hbase_sessions_operation_seconds_count{container=\"tomcat\",keyScope=\"/after\","
                    + "node=\"test-node\",operation=\"load\"} 4"), scrape);
            assertTrue(scrape.contains("hbase_sessions_operation_p99_seconds{container=\"jetty\",keyScope=\"/before\""),
                    scrape);
            assertTrue(scrape.contains("hbase_sessions_calls_in_multi_actions_total"), scrape);

            openedAfter.close();
            assertNull(prometheus.find("hbase.sessions.loads").tags("keyScope", "/after").functionCounter(),
                    "a closed store's meters are gone");
            assertTrue(prometheus.find("hbase.sessions.loads").tags("keyScope", "/before").functionCounter() != null);

            metrics.close();
            assertEquals(0, prometheus.find("hbase.sessions.loads").meters().size(), "closing the binder removes all");
            try (SessionStore openedLater = open(hbase, namespace, "/later", Container.SHIRO)) {
                assertEquals(0, prometheus.find("hbase.sessions.loads").meters().size(), "nor does it watch any more");
            }
        }
    }

    private static FunctionCounter counter(MeterRegistry registry, String name, String keyScope) {
        return registry.find(name).tags("keyScope", keyScope).functionCounter();
    }

    private static SessionStore open(EmbeddedHBase hbase, TestNamespace namespace, String keyScope, Container container) {
        StoreSettings settings = StoreSettings.builder()
                .set(Setting.ZOOKEEPER_QUORUM, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort())
                .set(Setting.KEY_SCOPE, keyScope)
                .set(Setting.TABLE, namespace.table("sessions"))
                .set(Setting.INDEX_TABLE, namespace.table("user_sessions"))
                .set(Setting.REGIONS, 1)
                .build();
        return SessionStores.open(settings, new Webapp(SessionStoreMetricsTest.class.getClassLoader(), container));
    }

    private static String createdIn(SessionStore store) {
        String id = UUID.randomUUID().toString();
        SessionRecord record = SessionRecord.created(id, Instant.now(), Duration.ofMinutes(30));
        StoredSession session = store.newSession(record, false);
        session.attributes().put("cart", "book");
        store.save(session, record);
        return id;
    }

    @Test
    void counterNamesAreDottedAsMicrometerNamesAre() {
        assertEquals("loads", SessionStoreMetrics.dotted("loads"));
        assertEquals("load.misses", SessionStoreMetrics.dotted("loadMisses"));
        assertEquals("calls.in.multi.actions", SessionStoreMetrics.dotted("callsInMultiActions"));
    }
}
