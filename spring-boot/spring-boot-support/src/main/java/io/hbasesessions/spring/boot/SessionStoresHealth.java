package io.hbasesessions.spring.boot;

import io.hbasesessions.store.Container;
import io.hbasesessions.store.OpenStores;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.StoreHealth;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The health of the session stores open in this JVM (the embedded server's, one per web application),
 * each checked by the store itself: HBase answers within {@code operationTimeoutMillis} and the tables
 * are as the store needs them. Each Boot line's health indicator reports it in its own types.
 */
public final class SessionStoresHealth implements AutoCloseable {

    /** One check of every open store: healthy only if there is one and each is. */
    public record Report(boolean healthy, Map<String, Object> details) {
    }

    private final Set<SessionStore> open = ConcurrentHashMap.newKeySet();
    private final OpenStores.Watching watching = OpenStores.watch(new OpenStores.Watcher() {
        @Override
        public void opened(SessionStore store, Container container) {
            open.add(store);
        }

        @Override
        public void closed(SessionStore store) {
            open.remove(store);
        }
    });

    /** Whether any store is open: the embedded server's sessions are in HBase. */
    public boolean anyOpen() {
        return !open.isEmpty();
    }

    /** Asks HBase, once per open store: call it from a health endpoint, not from a request of a user. */
    public Report check() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean healthy = !open.isEmpty();
        if (open.isEmpty()) {
            details.put("error", "No HBase session store is open: the embedded server has not started its sessions");
        }
        for (SessionStore store : open) {
            StoreHealth health = store.checkHealth();
            healthy &= health.healthy();
            Map<String, Object> storeDetails = new LinkedHashMap<>();
            storeDetails.put("healthy", health.healthy());
            storeDetails.put("elapsedMillis", health.elapsedMillis());
            if (!health.problems().isEmpty()) {
                storeDetails.put("problems", health.problems());
            }
            details.put(store.keyScope(), storeDetails);
        }
        return new Report(healthy, details);
    }

    @Override
    public void close() {
        watching.close();
    }
}
