package io.hbasesessions.jetty;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.CachingSessionDataStore;
import org.eclipse.jetty.session.NullSessionCache;
import org.eclipse.jetty.session.SessionData;
import org.eclipse.jetty.session.SessionDataStore;
import org.eclipse.jetty.session.SessionManager;

/**
 * Jetty's {@link NullSessionCache} (nothing kept between requests), except where Jetty looks a session
 * up through the cache while a request holds it: renewing its id (login, {@code changeSessionId}). A
 * plain null cache would load a second copy from HBase, rename and store that one, and leave the
 * request's own copy, with the changes it has not saved yet, under the old id. Here the request's copy
 * is the one renamed. And where Jetty expires a session the store's expiry sweep ended: a plain null
 * cache loses the loaded session before Jetty can fire its events ({@code doDelete} returns null). It also sends
 * the store's sessions their {@link ActivationEvents} (the store is not passivating, so Jetty does not).
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

    /**
     * Every session a request gets is made here, loaded or new, whether the HBase store or a caching store in front
     * of it handed out its data: from here on the request's response saves it before it is committed.
     */
    @Override
    public ManagedSession newSession(SessionData data) {
        ManagedSession session = super.newSession(data);
        hbaseStore().ifPresent(HBaseSessionDataStore::guardCurrentRequest);
        if (data instanceof HBaseSessionData stored) {
            stored.stored().attributes().whenDecoded(value -> ActivationEvents.didActivate(value, session));
        }
        return session;
    }

    /** The last request to let go of a session passivates the values it brought to life, before Jetty stores it. */
    @Override
    public void release(ManagedSession session) throws Exception {
        if (session.getRequests() <= 1 && session.getSessionData() instanceof HBaseSessionData stored) {
            ActivationEvents.willPassivate(stored.stored().attributes().liveValues(), session);
        }
        super.release(session);
    }

    @Override
    public ManagedSession doDelete(String id) {
        return expiring.remove(id);
    }

    /** The HBase store this cache uses, directly or behind a caching store. */
    private Optional<HBaseSessionDataStore> hbaseStore() {
        SessionDataStore store = getSessionDataStore();
        if (store instanceof CachingSessionDataStore caching) {
            store = caching.getSessionStore();
        }
        return store instanceof HBaseSessionDataStore hbase ? Optional.of(hbase) : Optional.empty();
    }
}
