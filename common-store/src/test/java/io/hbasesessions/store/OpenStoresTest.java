package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.WarClassLoaderFixture.WarLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #27: {@link OpenStores#watch} handed every web application every other application's store, which
 * closes, sweeps and revokes. Two WARs on one server, each with its store, each asking from its own code.
 */
@ExtendWith(HBaseExtension.class)
class OpenStoresTest {

    /** A class of a WAR that lists the key scopes of the stores it is told of. */
    private static final String STORE_WATCH = """
            package war;
            public final class StoreWatch {
                public static java.util.List<String> keyScopes() {
                    java.util.List<String> seen = new java.util.ArrayList<>();
                    io.hbasesessions.store.OpenStores.watch(new io.hbasesessions.store.OpenStores.Watcher() {
                        @Override public void opened(io.hbasesessions.store.OpenStores.ObservedStore store) {
                            seen.add(store.keyScope());
                        }
                        @Override public void closed(io.hbasesessions.store.OpenStores.ObservedStore store) { }
                    }).close();
                    return seen;
                }
            }
            """;

    @Test
    void aWebApplicationSeesOnlyItsOwnStoresAndNeverTheStoreItself(EmbeddedHBase server, TestNamespace namespace,
            @TempDir Path work) throws Exception {
        ClassLoader serverClassPath = getClass().getClassLoader();
        try (WarLoader shop = WarClassLoaderFixture.warOn(work.resolve("shop"), serverClassPath,
                        Map.of("StoreWatch", STORE_WATCH));
                WarLoader admin = WarClassLoaderFixture.warOn(work.resolve("admin"), serverClassPath,
                        Map.of("StoreWatch", STORE_WATCH));
                SessionStore shops = SessionStores.open(settings(server, namespace, "/shop"),
                        new Webapp(shop, Container.TOMCAT));
                SessionStore admins = SessionStores.open(settings(server, namespace, "/admin"),
                        new Webapp(admin, Container.TOMCAT))) {
            assertEquals(List.of("/shop"), keyScopesSeenFrom(shop));
            assertEquals(List.of("/admin"), keyScopesSeenFrom(admin));
            assertTrue(keyScopesSeenHere().containsAll(List.of("/shop", "/admin")),
                    "code on the server's class path sees every application's stores");
            assertFalse(SessionStore.class.isAssignableFrom(OpenStores.ObservedStore.class),
                    "a watcher gets a store that closes, sweeps and revokes");
        }
    }

    private static StoreSettings settings(EmbeddedHBase server, TestNamespace namespace, String keyScope) {
        return TestStores.settings(server, namespace).set(Setting.KEY_SCOPE, keyScope).build();
    }

    @SuppressWarnings("unchecked")
    private static List<String> keyScopesSeenFrom(ClassLoader war) throws ReflectiveOperationException {
        return (List<String>) war.loadClass("war.StoreWatch").getMethod("keyScopes").invoke(null);
    }

    private static List<String> keyScopesSeenHere() {
        List<String> seen = new ArrayList<>();
        OpenStores.watch(new OpenStores.Watcher() {
            @Override
            public void opened(OpenStores.ObservedStore store) {
                seen.add(store.keyScope());
            }

            @Override
            public void closed(OpenStores.ObservedStore store) {
            }
        }).close();
        return seen;
    }
}
