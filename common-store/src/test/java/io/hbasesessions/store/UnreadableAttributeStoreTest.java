package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** A class gone after a redeploy costs that one attribute, with a warning naming it; its bytes are kept. */
@ExtendWith(HBaseExtension.class)
class UnreadableAttributeStoreTest {

    @Test
    void anAttributeWhoseClassIsGoneIsLeftOutWhileTheOthersSurviveAndItsBytesAreKept(EmbeddedHBase server,
            TestNamespace namespace, @TempDir Path work) throws Exception {
        StoreSettings settings = TestStores.settings(server, namespace).build();
        try (URLClassLoader war = WarClassLoaderFixture.warLoader(work);
                SessionStore before = SessionStores.open(settings, new Webapp(war, Container.NONE));
                SessionStore redeployed = TestStores.open(settings);
                LogCapture log = new LogCapture()) {
            StoredSession session = TestStores.create(before, Instant.now(), Duration.ofMinutes(30),
                    Map.of("item", WarClassLoaderFixture.newCartItem(war, "book", 2), "user", "alice"));
            String id = session.record().id();

            StoredSession loaded = redeployed.load(id).orElseThrow();
            assertEquals(Map.of("user", "alice"), TestStores.attributesOf(loaded));
            assertEquals(1, log.warnings().stream().filter(w -> w.contains("'item'")).count(), log.warnings().toString());
            assertEquals(1, redeployed.counters().get(StoreCounter.UNREADABLE_ATTRIBUTES));

            loaded.attributes().put("step", "checkout");
            assertEquals(SaveResult.WRITTEN, redeployed.save(loaded, loaded.record()));
            Map<String, Object> backOnTheOldVersion = TestStores.attributesOf(before.load(id).orElseThrow());
            assertEquals("book x2", backOnTheOldVersion.get("item").toString(), "the unreadable bytes were kept");
            assertEquals("alice", backOnTheOldVersion.get("user"));
            assertTrue(backOnTheOldVersion.containsKey("step"));
        }
    }
}
