package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBaseCluster;
import io.hbasesessions.embedded.HBaseClusterExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store on a cluster of 3 region servers: sessions of a load run land on every region server
 * (HBase's own request counts), and after {@code kill -9} of the region server holding the most
 * session regions every session written with SYNC_WAL loads back. Prints FIGURE lines.
 */
@ExtendWith(HBaseClusterExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SessionsOnAClusterTest {

    private static final int REGIONS = 12;
    private static final int SESSIONS = 300;
    private static final Duration WAIT = Duration.ofSeconds(90);
    /** Region servers report their metrics to the master every 500 ms. */
    private static final Duration METRICS_WAIT = Duration.ofSeconds(10);
    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);

    private static final List<String> ids = new ArrayList<>();
    private static EmbeddedHBaseCluster cluster;
    private static StoreSettings settings;
    private static TableName table;
    private static SessionStore store;

    @BeforeAll
    static void openStoreOnBalancedTable(EmbeddedHBaseCluster hbase, TestNamespace namespace) {
        cluster = hbase;
        settings = TestStores.settings(cluster, namespace)
                .set(Setting.REGIONS, REGIONS)
                .set(Setting.WRITE_DURABILITY, WriteDurability.SYNC_WAL)
                .build();
        table = TableName.valueOf(settings.get(Setting.TABLE));
        store = TestStores.open(settings);
        cluster.awaitAllRegionsAssigned(table, WAIT);
        cluster.balance(table, WAIT);
    }

    @AfterAll
    static void closeStore() {
        store.close();
    }

    @Test
    @Order(1)
    void sessionsOfALoadRunLandOnEveryRegionServer() throws InterruptedException {
        Map<Integer, Long> before = cluster.requestsPerRegionServer(table);
        for (int i = 0; i < SESSIONS; i++) {
            StoredSession session = TestStores.create(store, Instant.now(), HALF_AN_HOUR, Map.of("cart", "item-" + i));
            ids.add(session.record().id());
            assertTrue(store.load(session.record().id()).isPresent());
        }
        figure("regions of the sessions table per region server", cluster.regionsPerRegionServer(table).toString());
        figure("sessions per region server (row locations)", sessionsPerRegionServer().toString());

        Map<Integer, Long> served = awaitRequestsOnEveryRegionServer(before);
        figure("requests per region server for " + SESSIONS + " creates and loads (ServerMetrics)", served.toString());
        served.forEach((server, requests) -> assertTrue(requests > 0, "region server " + server + " served none: " + served));
    }

    @Test
    @Order(2)
    void everySessionLoadsBackAfterKillOfTheRegionServerWithMostSessionRegions() {
        int victim = Collections.max(cluster.regionsPerRegionServer(table).entrySet(), Map.Entry.comparingByValue()).getKey();
        Instant killed = Instant.now();
        cluster.killRegionServer(victim);
        cluster.awaitAllRegionsAssigned(table, WAIT);
        figure("detection and reassignment after kill -9 of region server " + victim + " (ZooKeeper session timeout 5 s)",
                Duration.between(killed, Instant.now()).toMillis() + " ms");

        int lost = 0;
        for (int i = 0; i < ids.size(); i++) {
            Map<String, Object> attributes = store.load(ids.get(i)).map(TestStores::attributesOf).orElse(Map.of());
            lost += attributes.equals(Map.of("cart", "item-" + i)) ? 0 : 1;
        }
        figure("sessions lost of " + ids.size() + " written with SYNC_WAL", Integer.toString(lost));
        assertEquals(0, lost);
    }

    private static Map<Integer, Integer> sessionsPerRegionServer() {
        Map<Integer, Integer> sessions = new TreeMap<>();
        for (String id : ids) {
            byte[] row = TestStores.rowKey(settings.get(Setting.KEY_SCOPE), id);
            sessions.merge(cluster.regionServerHosting(table, row), 1, Integer::sum);
        }
        return sessions;
    }

    /** The requests served since {@code before}, once the master's metrics show some on every region server. */
    private static Map<Integer, Long> awaitRequestsOnEveryRegionServer(Map<Integer, Long> before) throws InterruptedException {
        Instant deadline = Instant.now().plus(METRICS_WAIT);
        while (true) {
            Map<Integer, Long> served = new TreeMap<>();
            cluster.requestsPerRegionServer(table).forEach((server, requests) -> served.put(server, requests - before.get(server)));
            if (served.values().stream().allMatch(requests -> requests > 0) || Instant.now().isAfter(deadline)) {
                return served;
            }
            Thread.sleep(250);
        }
    }

    /** One line per measured figure, collected with {@code grep -h '^FIGURE' target/surefire-reports/*-output.txt}. */
    private static void figure(String subject, String value) {
        System.out.println("FIGURE " + subject + ": " + value);
    }
}
