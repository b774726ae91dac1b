package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.WarClassLoaderFixture.WarLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A value of a class the class rules would refuse to read back is not stored where no node could read it: an
 * application's own attribute of such a class fails the request that set it, with the reason; a value the
 * container keeps under its own attribute names (Tomcat's CSRF filter keeps its nonces in an object of Tomcat's)
 * stays on its node, and the request goes on.
 */
@ExtendWith(HBaseExtension.class)
class ServerClassValuesTest {

    private static final String CSRF_NONCES = "org.apache.catalina.filters.CSRF_NONCE";

    @Test
    void aServerClassValueFailsTheApplicationsRequestButStaysOnTheNodeUnderTheContainersOwnName(EmbeddedHBase server,
            TestNamespace namespace, @TempDir Path work) throws Exception {
        try (WarLoader serverClassPath = WarClassLoaderFixture.warLoader(work);
                WarLoader webapp = WarClassLoaderFixture.emptyWarOn(serverClassPath);
                SessionStore store = SessionStores.open(TestStores.settings(server, namespace).build(),
                        new Webapp(webapp, Container.TOMCAT))) {
            Object serverValue = WarClassLoaderFixture.newCartItem(serverClassPath, "nonce", 1);

            StoredSession containers = store.newSession(SessionRecord.created(TestStores.newId(), Instant.now(),
                    Duration.ofMinutes(30)), false);
            containers.attributes().putAll(Map.of(CSRF_NONCES, serverValue, "cart", "book"));
            assertEquals(SaveResult.WRITTEN, store.save(containers, containers.record()));
            assertEquals(Map.of("cart", "book"), TestStores.attributesOf(store.load(containers.record().id()).orElseThrow()));

            StoredSession applications = store.newSession(SessionRecord.created(TestStores.newId(), Instant.now(),
                    Duration.ofMinutes(30)), false);
            applications.attributes().put("item", serverValue);
            UnserializableAttributeException refused = assertThrows(UnserializableAttributeException.class,
                    () -> store.save(applications, applications.record()));
            assertTrue(refused.getMessage().contains("war.CartItem is not one of the web application's own classes"),
                    refused.getMessage());
        }
    }
}
