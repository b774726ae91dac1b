package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SaveResult.Outcome;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #3, point 8 at store level: an attribute whose class the loading web application does not have
 * (a redeploy removed it) is left out with a warning naming it; the rest of the session survives, and
 * the left-out bytes are kept for a loader that still has the class.
 */
@ExtendWith(HBaseExtension.class)
class UnreadableAttributeStoreTest {

    private static <T> T withContextLoader(ClassLoader loader, Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    @Test
    void attributeWhoseClassIsGoneIsDroppedWhileTheOthersSurvive(EmbeddedHBase server, TestNamespace namespace,
            @TempDir Path work) throws Exception {
        try (SessionStore store = SessionStores.open(TestStores.settings(server, namespace).build());
                URLClassLoader war = WarClassLoaderFixture.cartItemLoader(work);
                LogCapture log = new LogCapture()) {
            Object item = WarClassLoaderFixture.newCartItem(war, "book", 2);
            SessionRecord session = SessionRecord.builder(TestStores.newId(), java.time.Instant.now())
                    .attribute("item", item).attribute("user", "alice").build();
            withContextLoader(war, () -> store.create(session));

            ClassLoader withoutCartItem = getClass().getClassLoader();
            LoadedSession loaded = withContextLoader(withoutCartItem, () -> store.load(session.id()).orElseThrow());
            assertEquals(Map.of("user", "alice"), loaded.record().attributes());
            assertEquals(1, log.warnings().stream().filter(w -> w.contains("'item'")).count(), log.warnings().toString());

            SaveResult saved = withContextLoader(withoutCartItem,
                    () -> store.save(loaded, loaded.record().toBuilder().attribute("step", "checkout").build()));
            assertEquals(Outcome.WRITTEN, saved.outcome());
            Map<String, Object> afterRedeployBack = withContextLoader(war,
                    () -> store.load(session.id()).orElseThrow().record().attributes());
            assertEquals("book x2", afterRedeployBack.get("item").toString(), "the unreadable bytes were kept");
            assertEquals("alice", afterRedeployBack.get("user"));
            assertTrue(afterRedeployBack.containsKey("step"));
        }
    }
}
