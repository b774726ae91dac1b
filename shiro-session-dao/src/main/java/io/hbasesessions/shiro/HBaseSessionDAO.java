package io.hbasesessions.shiro;

import io.hbasesessions.store.Container;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreMBean;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import java.io.Serializable;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.shiro.lang.util.Destroyable;
import org.apache.shiro.lang.util.Initializable;
import org.apache.shiro.session.Session;
import org.apache.shiro.session.UnknownSessionException;
import org.apache.shiro.session.mgt.SimpleSession;
import org.apache.shiro.subject.support.DefaultSubjectContext;

/**
 * Apache Shiro's {@code SessionDAO} on the shared HBase store: native Shiro sessions in the same tables,
 * with the same key hashing, TTL expiry, conflict merging and user index as the Tomcat and Jetty adapters.
 * A translation: every rule lives in the store.
 *
 * <p>Configured in {@code shiro.ini} with the settings every adapter shares, one bean property each
 * ({@code hbaseSessionDAO.zookeeperQuorum = zk1,zk2}, {@code hbaseSessionDAO.keyScope = /shop}); Shiro then
 * calls {@link #init()}, which opens the store, and {@link #destroy()} on shutdown. {@code keyScope} is
 * required: a DAO does not know its application's context path, and applications of one scope share sessions.
 * {@code principalAttribute} defaults to Shiro's principals attribute, so the primary principal is the
 * user "log out everywhere" ({@link #revokeAll}) finds a session under.
 *
 * <p>Expired sessions vanish by themselves (the store checks the idle timeout on every read, HBase's TTL
 * drops the bytes), so Shiro's session validation scheduler has no orphans to find. Without
 * {@code expiryEvents} turn it off ({@code sessionManager.sessionValidationSchedulerEnabled = false}): Shiro
 * never sees a session expire, and {@code SessionListener.onExpiration} does not fire. With
 * {@code expiryEvents} and {@link HBaseWebSessionManager}, each run of the scheduler sweeps the store's expiry
 * index instead of listing sessions ({@link #sweepExpired()}), and Shiro fires {@code onExpiration} for what
 * it ended.
 */
public class HBaseSessionDAO extends HBaseSessionDAOSetters implements Initializable, Destroyable {

    private static final System.Logger LOG = System.getLogger(HBaseSessionDAO.class.getName());

    /** Shiro's principals attribute names the indexed user unless {@code principalAttribute} says otherwise. */
    private final StoreSettings.Builder configured = StoreSettings.builder()
            .set(Setting.PRINCIPAL_ATTRIBUTE, DefaultSubjectContext.PRINCIPALS_SESSION_KEY);
    private volatile SessionStore store;
    private StoreSettings settings;
    private StoreMBean.Registration mbean;
    private final List<Consumer<StoreSettings>> whenOpen = new ArrayList<>();

    /**
     * Sets one store setting by its configuration name; a null or blank value keeps the store's default. The
     * bean properties of {@link HBaseSessionDAOSetters}, generated from the settings, call it, so that
     * {@code shiro.ini} can name each setting.
     *
     * @throws StoreConfigurationException for a name that is no setting, or a value that does not parse
     * @throws IllegalStateException once the store is open: a later setting would be silently ignored
     */
    @Override
    public synchronized void setSetting(String name, String value) {
        if (store != null) {
            throw new IllegalStateException("The HBaseSessionDAO is initialized already, so setting " + name
                    + " would change nothing: set every setting before init()");
        }
        configured.set(name, value);
    }

    /**
     * Opens the store (called by Shiro once the bean's properties are set). The web application's class
     * loader, which attribute classes come from, is the thread's context class loader at this point.
     *
     * @throws StoreConfigurationException for settings that are missing or wrong, saying how to fix them
     */
    @Override
    public synchronized void init() {
        if (store != null) {
            return;
        }
        settings = settings();
        store = SessionStores.open(settings, new Webapp(applicationClassLoader(), Container.SHIRO));
        mbean = StoreMBean.register(store, settings, "Shiro", settings.get(Setting.KEY_SCOPE));
        LOG.log(Level.INFO, "Shiro sessions are stored in HBase: {0}", settings);
        whenOpen.forEach(action -> action.accept(settings));
        whenOpen.clear();
    }

    /**
     * Runs {@code action} with the settings in force once the store is open: now, or when {@link #init()}
     * opens it. Beans that depend on the settings use it, since Shiro may initialize them before the DAO.
     */
    synchronized void whenOpen(Consumer<StoreSettings> action) {
        if (store != null) {
            action.accept(settings);
        } else {
            whenOpen.add(action);
        }
    }

    /** The settings as configured, checked together. */
    synchronized StoreSettings settings() {
        return configured.build();
    }

    /**
     * The loader of the application's own classes, whose values the store admits: the one that holds Shiro and this
     * DAO (the WAR's, with both in its WEB-INF/lib; the application's, in an embedded server), not the thread's
     * context loader, which an embedded server points at a web application loader that defines nothing.
     */
    private static ClassLoader applicationClassLoader() {
        return HBaseSessionDAO.class.getClassLoader();
    }

    /** Closes the store; called by Shiro on shutdown (possibly more than once). */
    @Override
    public synchronized void destroy() {
        if (store != null) {
            mbean.close();
            store.close();
            store = null;
        }
    }

    /** Stores a new session, durably, under a new id from the session id generator. */
    @Override
    protected Serializable doCreate(Session session) {
        Serializable id = generateSessionId(session);
        assignSessionId(session, id);
        SessionRecord record = SessionRecord.created(id.toString(), session.getStartTimestamp().toInstant(),
                SessionFields.maxInactiveOf(session.getTimeout())).withLastAccessTime(session.getLastAccessTime().toInstant());
        StoredSession created = store().newSession(record, false);
        created.attributes().putAll(attributesOf(session));
        store().save(created, record);
        return id;
    }

    /**
     * As Shiro's, with a message that leaves the id out: it is a bearer token, and Shiro's own message
     * ("There is no session with id [...]") would carry it into whatever logs the exception.
     *
     * @throws UnknownSessionException when {@link #doReadSession} finds nothing
     */
    @Override
    public Session readSession(Serializable sessionId) throws UnknownSessionException {
        Session session = doReadSession(sessionId);
        if (session == null) {
            throw new UnknownSessionException("There is no live session with this id (the id is not logged)");
        }
        return session;
    }

    /**
     * The session, or null (Shiro's {@code UnknownSessionException}) when it is missing, past its idle
     * timeout or maximum lifetime, or the id cannot name one. While HBase is unavailable this throws the
     * store's {@link StoreUnavailableException} within {@code operationTimeoutMillis}, or, with
     * {@code failMode=new_session}, finds nothing, so the request goes on as a visitor's.
     */
    @Override
    protected Session doReadSession(Serializable sessionId) {
        if (sessionId == null) {
            return null;
        }
        try {
            return store().load(sessionId.toString()).map(HBaseSession::new).orElse(null);
        } catch (StoreUnavailableException e) {
            if (!settings.get(Setting.FAIL_MODE).continuesWithoutSession()) {
                throw e;
            }
            LOG.log(Level.WARNING, "HBase is unavailable; the request goes on without its session "
                    + "(failMode=new_session): {0}", e.getMessage());
            return null;
        }
    }

    /**
     * Writes what changed since the session was read: nothing for an access within
     * {@code touchIntervalSeconds} of the last written one, a touch for an older one, otherwise the changed
     * attributes and fields, merged with another writer's changes. A session Shiro made itself (the one it
     * creates a session from) is written whole over the stored one. An update with nothing to write asks
     * HBase nothing, so it does not notice a deletion; the next read does.
     *
     * @throws UnknownSessionException if the session was deleted meanwhile (logged out, revoked, expired):
     *     it is not stored again
     */
    @Override
    public void update(Session session) {
        SaveResult result;
        if (session instanceof HBaseSession read && read.endedInStore()) {
            return;
        }
        if (session instanceof HBaseSession read) {
            SessionFields.write(read, read.stored().attributes());
            result = store().save(read.stored(), read.currentRecord());
        } else {
            SessionRecord record = new SessionRecord(session.getId().toString(), session.getStartTimestamp().toInstant(),
                    session.getLastAccessTime().toInstant(), SessionFields.maxInactiveOf(session.getTimeout()),
                    Optional.empty());
            result = store().saveWhole(record, attributesOf(session), true);
        }
        if (result == SaveResult.GONE) {
            throw new UnknownSessionException("The session was deleted or ended meanwhile (logged out, revoked or "
                    + "idle); it is not stored again");
        }
    }

    /**
     * Deletes the session and its user index entry; nothing for a session that is not stored, or that the
     * expiry sweep ended (and so deleted) already.
     */
    @Override
    public void delete(Session session) {
        if (session instanceof HBaseSession read) {
            if (!read.endedInStore()) {
                store().delete(read.stored());
            }
        } else if (session.getId() != null) {
            store().delete(session.getId().toString());
        }
    }

    /**
     * Always empty: the store keeps no list of a scope's sessions (rows are keyed by a hash of the id, so listing
     * them is a scan of the whole table, every application's), and expired sessions end by themselves. Shiro's
     * session validation is the only caller that needs sessions from here, and with {@code expiryEvents}
     * {@link HBaseWebSessionManager} asks {@link #sweepExpired()} instead.
     */
    @Override
    public Collection<Session> getActiveSessions() {
        return List.of();
    }

    /**
     * With {@code expiryEvents}: the sessions this sweep of the store's expiry index ended (idle past their
     * timeout or past {@code maxLifetimeSeconds}), already deleted, each returned by one sweep of the whole
     * fleet, with their attributes, marked expired so that Shiro's validation fires
     * {@code SessionListener.onExpiration} for them; the DAO's update and delete of them ask HBase nothing.
     * Without {@code expiryEvents}, and while HBase is unavailable (logged; the due buckets are swept by a later
     * call), empty.
     */
    public List<Session> sweepExpired() {
        List<StoredSession> ended;
        try {
            ended = store().sweepExpired();
        } catch (SessionStoreException e) {
            LOG.log(Level.WARNING, "The expiry sweep failed; its buckets are swept later: {0}", e.getMessage());
            return List.of();
        }
        return ended.stream().<Session>map(HBaseSession::endedInStore).toList();
    }

    /** "Log out everywhere": deletes every session of {@code user} (a primary principal) in every key scope. */
    public int revokeAll(String user) {
        return store().revokeAll(user);
    }

    /** The store's activity since {@link #init()} (reads, writes by kind, skipped touches, conflicts). */
    public StoreCounters getCounters() {
        return store().counters();
    }

    private SessionStore store() {
        SessionStore open = store;
        if (open == null) {
            throw new IllegalStateException("HBaseSessionDAO is not initialized: Shiro calls init() on ini beans; "
                    + "call it yourself when you configure Shiro in code");
        }
        return open;
    }

    /** The application attributes and the fields kept as attributes, by String name. */
    private static Map<String, Object> attributesOf(Session session) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        for (Object key : session.getAttributeKeys()) {
            Object value = session.getAttribute(key);
            if (value != null) {
                attributes.put(ShiroAttributes.checkedName(key), value);
            }
        }
        attributes.putAll(SessionFields.of(session));
        return attributes;
    }
}
