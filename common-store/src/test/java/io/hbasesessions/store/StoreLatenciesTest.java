package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Each store call that completed is measured once, under what it did, and shown through JMX beside the counters;
 * a save that wrote nothing and a call that failed are not measured.
 */
@ExtendWith(HBaseExtension.class)
class StoreLatenciesTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);

    @Test
    void everyCallIsMeasuredOnceUnderWhatItDidAndJmxShowsIt(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        StoreSettings settings = TestStores.settings(server, namespace).set(Setting.PRINCIPAL_ATTRIBUTE, "user")
                .set(Setting.MAX_SESSION_BYTES, 4_096L).build();
        try (SessionStore store = TestStores.open(settings, CLOCK);
                StoreMBean.Registration mbean = StoreMBean.register(store, settings, "test", "/latencies")) {
            StoredSession created = TestStores.create(store, CLOCK.instant(), Duration.ofMinutes(30), Map.of("user", "ada"));
            StoredSession loaded = store.load(created.record().id()).orElseThrow();
            assertEquals(SaveResult.UNCHANGED, store.save(loaded, loaded.record()));
            loaded.attributes().put("cart", "book");
            assertEquals(SaveResult.WRITTEN, store.save(loaded, loaded.record()));
            CLOCK.advance(Duration.ofMinutes(2));
            assertEquals(SaveResult.TOUCHED, store.save(loaded, loaded.record().withLastAccessTime(CLOCK.instant())));
            loaded.attributes().put("photo", new byte[10_000]);
            assertThrows(SessionTooLargeException.class, () -> store.save(loaded, loaded.record()));
            loaded.attributes().remove("photo");
            String newId = TestStores.newId();
            assertEquals(SaveResult.WRITTEN, store.changeId(loaded, loaded.record(), newId));
            StoredSession second = TestStores.create(store, CLOCK.instant(), Duration.ofMinutes(30), Map.of("user", "ada"));
            assertEquals(2, store.revokeAll("ada"));
            store.delete(second.record().id());
            store.load("no-such-session");
            store.sweepExpired();

            Map<StoreOperation, Long> expected = new EnumMap<>(StoreOperation.class);
            expected.put(StoreOperation.LOAD, 2L);
            expected.put(StoreOperation.CREATE, 2L);
            expected.put(StoreOperation.SAVE, 1L);
            expected.put(StoreOperation.TOUCH, 1L);
            expected.put(StoreOperation.CHANGE_ID, 1L);
            expected.put(StoreOperation.REVOKE, 1L);
            expected.put(StoreOperation.DELETE, 1L);
            expected.put(StoreOperation.EXPIRY_SWEEP, 0L);
            StoreLatencies latencies = store.latencies();
            MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
            for (StoreOperation operation : StoreOperation.values()) {
                StoreLatencies.Latency latency = latencies.get(operation);
                String name = operation.operationName();
                assertEquals(expected.get(operation), latency.count(), name);
                assertEquals(latency.count(), jmx.getAttribute(mbean.name(), name + "Count"), name);
                if (latency.count() > 0) {
                    assertTrue(latency.totalMillis() > 0, latency.toString());
                    assertTrue(latency.p50Millis() <= latency.p90Millis() && latency.p90Millis() <= latency.p99Millis()
                            && latency.p99Millis() <= latency.maxMillis() * 1.01, latency.toString());
                    assertTrue((Double) jmx.getAttribute(mbean.name(), name + "P99Millis") > 0, name);
                }
            }
            Set<String> listed = Arrays.stream(jmx.getMBeanInfo(mbean.name()).getAttributes())
                    .map(MBeanAttributeInfo::getName).collect(Collectors.toSet());
            assertTrue(listed.containsAll(latencies.byAttributeName().keySet()), listed.toString());
            assertTrue(listed.contains("loadMaxMillis") && listed.contains("expirySweepP50Millis"), listed.toString());
        }
    }
}
