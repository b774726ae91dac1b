package io.hbasesessions.tomcat;

import io.hbasesessions.store.Container;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.SessionPrincipal;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Session;
import org.apache.catalina.realm.GenericPrincipal;
import org.apache.catalina.session.ManagerBase;
import org.apache.catalina.session.StandardSession;
import org.apache.catalina.session.StoreBase;

/**
 * A {@code Store} for Tomcat's {@code PersistentManager} (sticky sessions, swapped out to HBase):
 * {@code <Manager className="org.apache.catalina.session.PersistentManager">
 * <Store className="io.hbasesessions.tomcat.HBaseStore" zookeeperQuorum="..."/></Manager>}.
 *
 * <p>The node owns its sessions, so a save writes the node's whole state over the stored one (the store
 * still writes nothing when nothing changed). A session this node stored before and that is gone now
 * (revoked, invalidated by another node) is not brought back: it is expired here instead.
 *
 * <p>HBase's TTL and the store's checks replace the expiry scan: {@link #processExpires()} reads nothing
 * from HBase. Because sessions are stored under a hash of their id and the id itself is never stored,
 * HBase cannot list them: {@link #keys()}, {@link #getSize()} and {@link #clear()} cover the sessions
 * this node has stored or loaded since it started and that have not expired. Authentication is stored
 * when the manager's {@code persistAuthentication} is true, as with Tomcat's own stores.
 */
public class HBaseStore extends StoreBase {

    private final ConfiguredSettings configured = new ConfiguredSettings();
    /** Ids this node stored or loaded, with the time they expire if idle (Instant.MAX: never). */
    private final Map<String, Instant> knownSessions = new ConcurrentHashMap<>();
    private volatile SessionStore store;

    /** One setting of the store by its configuration name; see {@link HBaseSessionManager#setProperty}. */
    public boolean setProperty(String name, String value) {
        return configured.set(name, value);
    }

    @Override
    public String getStoreName() {
        return "HBaseStore";
    }

    @Override
    protected synchronized void startInternal() throws LifecycleException {
        Context context = manager.getContext();
        try {
            String tomcatFilter = manager instanceof ManagerBase base ? base.getSessionAttributeValueClassNameFilter() : null;
            store = SessionStores.open(configured.resolve(context, tomcatFilter),
                    new Webapp(context.getLoader().getClassLoader(), Container.TOMCAT,
                            (name, value) -> manager.willAttributeDistribute(name, value)));
        } catch (SessionStoreException e) {
            throw new LifecycleException(ConfiguredSettings.describe(context) + ": cannot open the HBase session "
                    + "store: " + e.getMessage(), e);
        }
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

    @Override
    public Session load(String id) throws IOException {
        Optional<StoredSession> loaded = call(hbase -> hbase.load(SessionIds.withoutRoute(id)));
        if (loaded.isEmpty()) {
            return null;
        }
        call(hbase -> {
            hbase.release(loaded.get());
            return null;
        });
        SessionRecord record = loaded.get().record();
        StandardSession session = (StandardSession) manager.createEmptySession();
        session.setValid(true);
        session.setCreationTime(record.creationTime().toEpochMilli());
        session.setMaxInactiveInterval((int) record.maxInactiveInterval().toSeconds());
        session.setId(id, false);
        session.setNew(false);
        loaded.get().attributes().forEach((name, value) -> session.setAttribute(name, value, false));
        if (persistAuthentication()) {
            record.login().ifPresent(login -> {
                session.setAuthType(login.authType());
                session.setPrincipal(new GenericPrincipal(login.name(), login.roles()));
            });
        }
        remember(id, record);
        return session;
    }

    @Override
    public void save(Session session) throws IOException {
        StandardSession standard = (StandardSession) session;
        String id = SessionIds.withoutRoute(session.getIdInternal());
        SessionRecord record = new SessionRecord(id, Instant.ofEpochMilli(standard.getCreationTimeInternal()),
                Instant.ofEpochMilli(standard.getThisAccessedTimeInternal()),
                Duration.ofSeconds(standard.getMaxInactiveInterval()), login(standard));
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (String name : Collections.list(standard.getAttributeNames())) {
            attributes.put(name, standard.getAttribute(name));
        }
        boolean storedBefore = knownSessions.containsKey(session.getIdInternal());
        if (call(hbase -> hbase.saveWhole(record, attributes, storedBefore)) == SaveResult.GONE) {
            knownSessions.remove(session.getIdInternal());
            // Revoked or invalidated elsewhere: it ends here too, instead of coming back.
            standard.expire();
            return;
        }
        remember(session.getIdInternal(), record);
    }

    private Optional<SessionPrincipal> login(StandardSession session) {
        return persistAuthentication() ? HBaseSession.loginOf(session.getPrincipal(), session.getAuthType())
                : Optional.empty();
    }

    @Override
    public void remove(String id) throws IOException {
        call(hbase -> hbase.delete(SessionIds.withoutRoute(id)));
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

    /** A store call; store failures become the IOException Tomcat expects. */
    private <T> T call(Function<SessionStore, T> storeCall) throws IOException {
        SessionStore current = store;
        if (current == null) {
            throw new IOException("HBaseStore is not started");
        }
        try {
            return storeCall.apply(current);
        } catch (SessionStoreException e) {
            throw new IOException(e.getMessage(), e);
        }
    }
}
