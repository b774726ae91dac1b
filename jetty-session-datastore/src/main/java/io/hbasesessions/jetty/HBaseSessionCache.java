package io.hbasesessions.jetty;

import java.util.function.Function;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.NullSessionCache;
import org.eclipse.jetty.session.SessionManager;

/**
 * Jetty's {@link NullSessionCache} (nothing kept between requests), except where Jetty looks a session
 * up through the cache while a request holds it: renewing its id (login, {@code changeSessionId}). A
 * plain null cache would load a second copy from HBase, rename and store that one, and leave the
 * request's own copy, with the changes it has not saved yet, under the old id. Here the request's copy
 * is the one renamed.
 */
final class HBaseSessionCache extends NullSessionCache {

    HBaseSessionCache(SessionManager manager) {
        super(manager);
    }

    @Override
    protected ManagedSession doComputeIfAbsent(String id, Function<String, ManagedSession> load) {
        if (getSessionDataStore() instanceof HBaseSessionDataStore store) {
            ManagedSession held = store.heldByCurrentRequest(id);
            if (held != null) {
                return held;
            }
        }
        return super.doComputeIfAbsent(id, load);
    }
}
