package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.testing.Browser;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.session.SessionContext;
import org.eclipse.jetty.session.SessionData;
import org.eclipse.jetty.session.SessionDataMap;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Jetty's {@code CachingSessionDataStore} stacked in front of the HBase store: updates of sessions
 * whose data the cache, not this store, handed to Jetty are stored like any other, and a node with
 * the plain HBase store sees them.
 */
@ExtendWith(HBaseExtension.class)
class CachingStoreInFrontTest {

    private static JettyNode cached;
    private static JettyNode plain;
    private static SessionStore hbase;

    @BeforeAll
    static void start(EmbeddedHBase server, TestNamespace namespace) {
        Map<String, String> settings = TestStores.settings(server, namespace);
        cached = JettyNode.start("node0", settings, CopyingCache::new);
        plain = JettyNode.start("node1", settings);
        hbase = TestStores.inspector(settings);
    }

    @AfterAll
    static void stop() {
        cached.close();
        plain.close();
        hbase.close();
    }

    @Test
    void updatesOfDataTheCacheHandedOutAreStoredAndSeenByAPlainNode() {
        Browser browser = new Browser();
        browser.get(cached.servlet(), "op=put&name=cart&value=first").expect(200);
        for (int i = 1; i <= 5; i++) {
            browser.get(cached.servlet(), "op=put&name=cart&value=update" + i).expect(200);
            assertEquals("Note(update" + i + ")", browser.get(plain.servlet(), "op=get").expect(200).attribute("cart"),
                    "update " + i + " of a session the cache handed out");
        }
    }

    @Test
    void anInvalidationThroughTheCacheEndsTheSessionInHBase() {
        Browser browser = new Browser();
        browser.get(cached.servlet(), "op=put&name=cart&value=gone-soon").expect(200);
        browser.get(cached.servlet(), "op=put&name=cart&value=cached").expect(200);
        String id = browser.sessionId();
        browser.get(cached.servlet(), "op=invalidate").expect(200);
        assertFalse(TestStores.exists(hbase, id));
        assertNull(Browser.withCookie(id + ".node1").get(plain.servlet(), "op=get").expect(200).attribute("cart"));
    }

    /**
     * A shared cache as a remote one behaves: it hands out copies, plain {@link SessionData} rather
     * than the store's own data objects.
     */
    private static final class CopyingCache extends AbstractLifeCycle implements SessionDataMap {

        private final Map<String, SessionData> copies = new ConcurrentHashMap<>();

        @Override
        public void initialize(SessionContext context) {
        }

        @Override
        public SessionData load(String id) {
            SessionData held = copies.get(id);
            return held == null ? null : copyOf(held);
        }

        @Override
        public void store(String id, SessionData data) {
            copies.put(id, copyOf(data));
        }

        @Override
        public boolean delete(String id) {
            return copies.remove(id) != null;
        }

        private static SessionData copyOf(SessionData data) {
            SessionData copy = new SessionData(data.getId(), data.getContextPath(), data.getVhost(), data.getCreated(),
                    data.getAccessed(), data.getLastAccessed(), data.getMaxInactiveMs());
            copy.putAllAttributes(data.getAllAttributes());
            copy.setLastSaved(data.getLastSaved());
            copy.setExpiry(data.getExpiry());
            copy.setLastNode(data.getLastNode());
            copy.setCookieSet(data.getCookieSet());
            return copy;
        }
    }
}
