package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** One HBase connection per configuration, shared by its stores and closed with the last of them. */
@ExtendWith(HBaseExtension.class)
class SharedConnectionsTest {

    private final HBaseCalls calls = new HBaseCalls(new LongAdder());

    @Test
    void storesOfOneConfigurationShareAConnectionThatClosesWithTheLastOfThem(EmbeddedHBase server, TestNamespace namespace) {
        // A timeout no other test uses, so no other test's connection is in play.
        StoreSettings settings = TestStores.settings(server, namespace).operationTimeoutMillis(4_321).build();
        SharedConnections.Lease shop = SharedConnections.acquire(settings, calls);
        SharedConnections.Lease blog = SharedConnections.acquire(settings.toBuilder().keyScope("/blog").build(), calls);
        SharedConnections.Lease otherTimeout = SharedConnections.acquire(
                settings.toBuilder().operationTimeoutMillis(4_322).build(), calls);

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
        SessionStore first = SessionStores.open(settings);
        try (SessionStore second = SessionStores.open(settings)) {
            first.close();
            SessionRecord session = SessionRecord.builder(TestStores.newId(), Instant.now()).build();
            second.create(session);
            assertTrue(second.load(session.id()).isPresent());
        }
    }
}
