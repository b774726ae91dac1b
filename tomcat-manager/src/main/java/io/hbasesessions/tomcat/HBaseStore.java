package io.hbasesessions.tomcat;

import io.hbasesessions.store.LoadedSession;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Session;
import org.apache.catalina.session.ManagerBase;
import org.apache.catalina.session.StandardSession;
import org.apache.catalina.session.StoreBase;

/**
 * A {@code Store} for Tomcat's {@code PersistentManager} (sticky sessions, swapped out to HBase):
 * {@code <Manager className="org.apache.catalina.session.PersistentManager">
 * <Store className="io.hbasesessions.tomcat.HBaseStore" zookeeperQuorum="..."/></Manager>}.
 *
 * <p>HBase's TTL and the store's idle check replace the expiry scan: {@link #processExpires()} reads
 * nothing from HBase. Because sessions are stored under a hash of their id and the id itself is never
 * stored, HBase cannot list them: {@link #keys()}, {@link #getSize()} and {@link #clear()} cover the
 * sessions this node has stored or loaded since it started and that have not expired. After a restart
 * that set is empty, so {@code PersistentManager} loads nothing up front and swaps each session in when
 * its next request asks for it.
 *
 * <p>Authentication is stored when the manager's {@code persistAuthentication} is true, as with Tomcat's
 * own stores. Pessimistic locking has no use here (one node owns a session): leases are given back at once.
 */
public class HBaseStore extends StoreBase implements StoreAttributes {

    private final ConfiguredSettings configured = new ConfiguredSettings();
    /** Ids this node stored or loaded, with the time they expire if idle (Instant.MAX: never). */
    private final Map<String, Instant> knownSessions = new ConcurrentHashMap<>();
    private volatile SessionStore store;

    // ------------------------------------------------------------------ settings (shared vocabulary)

    @Override
    public void setStoreSetting(String name, String value) {
        configured.put(name, value);
    }

    // ------------------------------------------------------------------ lifecycle

    @Override
    public String getStoreName() {
        return "HBaseStore";
    }

    @Override
    protected synchronized void startInternal() throws LifecycleException {
        Context context = manager.getContext();
        store = ConfiguredSettings.open(configured.resolve(context), context);
        super.startInternal();
    }

    @Override
    protected synchronized void stopInternal() throws LifecycleException {
        super.stopInternal();
        SessionStore closing = store;
        store = null;
        knownSessions.clear();
        if (closing != null) {
            closing.close();
        }
    }

    // ------------------------------------------------------------------ Store

    @Override
    public Session load(String id) throws IOException {
        Optional<LoadedSession> loaded = call(hbase -> hbase.load(SessionIds.raw(id)));
        if (loaded.isEmpty()) {
            return null;
        }
        call(hbase -> {
            hbase.release(loaded.get());
            return null;
        });
        RecordSession session = new RecordSession(manager);
        session.restore(id, loaded.get().record(), persistAuthentication());
        remember(id, loaded.get().record());
        return session;
    }

    /**
     * Writes the node's state of the session over the stored one: the node owns the session, so its
     * state wins; the store still writes nothing when nothing changed.
     */
    @Override
    public void save(Session session) throws IOException {
        // This node owns the session (sticky): its authentication state is the whole truth.
        SessionRecord record = RecordSession.toRecord((StandardSession) session, persistAuthentication(), null);
        call(hbase -> {
            Optional<LoadedSession> stored = hbase.load(record.id());
            if (stored.isEmpty() || hbase.save(stored.get(), record).outcome() == SaveResult.Outcome.GONE) {
                hbase.create(record);
            }
            return null;
        });
        remember(session.getIdInternal(), record);
    }

    @Override
    public void remove(String id) throws IOException {
        call(hbase -> store.delete(SessionIds.raw(id)));
        knownSessions.remove(id);
    }

    @Override
    public String[] keys() {
        return knownSessions.keySet().toArray(String[]::new);
    }

    @Override
    public int getSize() {
        return knownSessions.size();
    }

    @Override
    public void clear() throws IOException {
        for (String id : keys()) {
            remove(id);
        }
    }

    /** Forgets sessions that expired while idle; HBase's TTL removes their rows. Reads nothing from HBase. */
    @Override
    public void processExpires() {
        Instant now = Instant.now();
        knownSessions.values().removeIf(expiry -> !now.isBefore(expiry));
    }

    private void remember(String id, SessionRecord record) {
        knownSessions.put(id, record.idleExpiryTime().orElse(Instant.MAX));
    }

    private boolean persistAuthentication() {
        return manager instanceof ManagerBase base && base.getPersistAuthentication();
    }

    /** A store call under the web application's class loader; store failures become the IOException Tomcat expects. */
    private <T> T call(Function<SessionStore, T> storeCall) throws IOException {
        SessionStore current = store;
        if (current == null) {
            throw new IOException("HBaseStore is not started");
        }
        try {
            return WebappClassLoader.call(manager.getContext(), () -> storeCall.apply(current));
        } catch (SessionStoreException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
