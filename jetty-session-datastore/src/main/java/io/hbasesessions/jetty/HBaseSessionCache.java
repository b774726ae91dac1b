package io.hbasesessions.jetty;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.NullSessionCache;
import org.eclipse.jetty.session.SessionManager;

/**
 * Jetty's {@link NullSessionCache} (nothing kept between requests), except where Jetty looks a session
 * up through the cache while a request holds it: renewing its id (login, {@code changeSessionId}). A
 * plain null cache would load a second copy from HBase, rename and store that one, and leave the
 * request's own copy, with the changes it has not saved yet, under the old id. Here the request's copy
 * is the one renamed. And where Jetty expires a session the store's expiry sweep ended: a plain null
 * cache loses the loaded session before Jetty can fire its events ({@code doDelete} returns null).
 */
final class HBaseSessionCache extends NullSessionCache {

    /** Sessions loaded to be expired, between the load and Jetty's {@code doDelete} in {@code invalidate(id)}. */
    private final Map<String, ManagedSession> expiring = new ConcurrentHashMap<>();

    HBaseSessionCache(SessionManager manager) {
        super(manager);
    }

    @Override
    protected ManagedSession doComputeIfAbsent(String id, Function<String, ManagedSession> load) {
        if (!(getSessionDataStore() instanceof HBaseSessionDataStore store)) {
            return super.doComputeIfAbsent(id, load);
        }
        ManagedSession held = store.heldByCurrentRequest(id);
        if (held != null) {
            return held;
        }
        ManagedSession loaded = super.doComputeIfAbsent(id, load);
        if (loaded != null && store.isEndedBySweep(id)) {
            expiring.put(id, loaded);
        }
        return loaded;
    }

    @Override
    public ManagedSession doDelete(String id) {
        return expiring.remove(id);
    }
}
