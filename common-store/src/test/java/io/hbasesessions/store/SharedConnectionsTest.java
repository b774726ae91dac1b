package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One HBase connection per configuration, shared by the stores that use it, closed with the last of them. */
@ExtendWith(HBaseExtension.class)
class SharedConnectionsTest {

    private final HBaseCalls calls = new HBaseCalls(new LiveCounters());

    @Test
    void storesOfOneConfigurationShareAConnectionThatClosesWithTheLastOfThem(EmbeddedHBase server, TestNamespace namespace) {
        // A timeout no other test uses, so no other test's connection is in play.
        StoreSettings settings = TestStores.settings(server, namespace).set(Setting.OPERATION_TIMEOUT_MILLIS, 4_321L).build();
        SharedConnections.Lease shop = SharedConnections.acquire(settings, calls);
        SharedConnections.Lease blog = SharedConnections.acquire(settings.toBuilder().set(Setting.KEY_SCOPE, "/blog").build(),
                calls);
        SharedConnections.Lease otherTimeout = SharedConnections.acquire(
                settings.toBuilder().set(Setting.OPERATION_TIMEOUT_MILLIS, 4_322L).build(), calls);

        assertSame(shop.connection(), blog.connection());
        assertNotSame(shop.connection(), otherTimeout.connection());
        shop.close();
        shop.close();
        assertFalse(blog.connection().isClosed(), "a second close of one share must not close the others'");
        blog.close();
        assertTrue(blog.connection().isClosed());
        assertFalse(otherTimeout.connection().isClosed());
        otherTimeout.close();
    }

    @Test
    void closingOneStoreLeavesTheOtherWorking(EmbeddedHBase server, TestNamespace namespace) {
        StoreSettings settings = TestStores.settings(server, namespace).build();
        SessionStore first = TestStores.open(settings);
        try (SessionStore second = TestStores.open(settings)) {
            first.close();
            StoredSession session = TestStores.create(second, Instant.now(), Duration.ofMinutes(30), Map.of("a", 1));
            assertTrue(second.load(session.record().id()).isPresent());
        }
    }
}
