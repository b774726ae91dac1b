package io.hbasesessions.tomcat;

import io.hbasesessions.api.SessionRevoker;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreMBean;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Session;
import org.apache.catalina.session.ManagerBase;
import org.apache.catalina.session.StandardSession;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * Non-sticky Tomcat sessions kept in HBase:
 * {@code <Manager className="io.hbasesessions.tomcat.HBaseSessionManager" zookeeperQuorum="zk1,zk2,zk3"/>}.
 *
 * <p>This manager finds and creates sessions. Each request reads its session from HBase once and works on its
 * own copy, which the request's {@link RequestSessions} (bound by {@link HBaseSessionValve}) saves before the
 * response can be committed and drops when the request ends: no node keeps a session between requests, so any
 * node can serve the next one. What is written is decided by the store (only changed attributes, debounced
 * access-time touches, concurrent changes merged per attribute). Concurrent requests on one node do not share a
 * copy: each save must compare against the state its own request started from.
 *
 * <p>Expiry is the store's check on every read plus HBase's TTL; this manager never scans HBase. So
 * {@code HttpSessionListener.sessionDestroyed} fires on {@code invalidate()} (on the node that
 * invalidates), and for a session that expires while idle only with {@code expiryEvents}: then
 * {@link #processExpires} sweeps the store's due expiry buckets and expires, with Tomcat's events, each
 * session the sweep ended.
 *
 * <p>Every setting of the store's configuration vocabulary is an attribute of the {@code <Manager>}
 * element (Tomcat passes each to {@link #setProperty}); they are checked when the context starts,
 * which fails with the reason if one is wrong.
 */
public class HBaseSessionManager extends ManagerBase {

    private static final Log log = LogFactory.getLog(HBaseSessionManager.class);

    private final ConfiguredSettings configured = new ConfiguredSettings();
    /** A session that is never used, whose {@code exclude} rules are Tomcat's and this manager's filters. */
    private final HBaseSession exclusionRules = new HBaseSession(this);
    private HBaseSessionValve valve;
    private volatile StoreSettings settings;
    private volatile SessionStore store;
    private StoreMBean.Registration mbean;
    private ClassLoader applicationClassLoader;
    /** The session notes that stay on the node which were reported, each once. */
    private final Set<String> notesReported = ConcurrentHashMap.newKeySet();

    public HBaseSessionManager() {
        // Another node must recognise a FORM or programmatic login, so the login is stored by default
        // (persistAuthentication="false" turns it off).
        setPersistAuthentication(true);
    }

    /**
     * One setting of the store by its configuration name ({@code zookeeperQuorum}, {@code keyScope}, ...):
     * Tomcat calls this for every attribute of {@code <Manager>} that has no setter of its own.
     *
     * @return false for a name that is no setting (Tomcat warns; the context then fails to start)
     */
    public boolean setProperty(String name, String value) {
        return configured.set(name, value);
    }

    /**
     * For an embedded Tomcat whose application classes are on the class path the server itself was started
     * from (Spring Boot): the loader that defines them. The store admits attribute classes of the application's
     * own loader only; unset, that is the context's web application class loader, which defines a WAR's classes.
     */
    public void setApplicationClassLoader(ClassLoader loader) {
        this.applicationClassLoader = loader;
    }

    @Override
    public String getName() {
        return "HBaseSessionManager";
    }

    /**
     * Installs the valve as soon as the manager gets its context. The context adds its Authenticator
     * valve when it starts, before it starts its manager, and the Authenticator looks the session up on
     * every request: the valve must come first to bound that lookup to the request and answer for it.
     */
    @Override
    public void setContext(Context context) {
        Context previous = getContext();
        super.setContext(context);
        if (previous != context) {
            removeValve(previous);
            addValve(context);
        }
    }

    @Override
    protected synchronized void startInternal() throws LifecycleException {
        super.startInternal();
        if (valve == null) {
            addValve(getContext());
            log.warn("HBaseSessionManager was set on a running context: its valve runs after the Authenticator. "
                    + "Configure the Manager in context.xml so that it is installed before the context starts.");
        }
        Context context = getContext();
        settings = configured.resolve(context, getSessionAttributeValueClassNameFilter());
        try {
            ClassLoader application = applicationClassLoader != null ? applicationClassLoader
                    : context.getLoader().getClassLoader();
            store = SessionStores.open(settings, new Webapp(application, Container.TOMCAT, this::storesAttribute)
                    .onRoute(getEngine().getJvmRoute()));
            mbean = StoreMBean.register(store, settings, "Tomcat/" + getEngine().getName(),
                    context.getParent().getName() + (context.getPath().isEmpty() ? "/" : context.getPath()));
        } catch (SessionStoreException e) {
            closeStore();
            throw new LifecycleException(ConfiguredSettings.describe(context) + ": cannot open the HBase session "
                    + "store: " + e.getMessage(), e);
        }
        if (settings.get(Setting.EXPIRY_EVENTS)) {
            paceExpirySweeps(context);
        }
        SessionStore opened = store;
        context.getServletContext().setAttribute(SessionRevoker.CONTEXT_ATTRIBUTE, (SessionRevoker) opened::revokeAll);
        log.info(ConfiguredSettings.describe(context) + ": " + settings);
        setState(LifecycleState.STARTING);
    }

    /**
     * Tomcat calls {@link #processExpires} every {@code backgroundProcessorDelay} x
     * {@code processExpiresFrequency} seconds: with {@code expiryEvents}, sweeps must come at least every
     * half event delay, so a longer background delay is shortened for this context.
     */
    private void paceExpirySweeps(Context context) {
        int period = settings.expirySweepPeriodSeconds();
        int delay = backgroundDelayOf(context);
        if (delay <= 0 || delay > period) {
            log.info(ConfiguredSettings.describe(context) + ": backgroundProcessorDelay " + delay + " s is "
                    + "longer than half of expiryEventDelaySeconds; this context sweeps every " + period + " s");
            context.setBackgroundProcessorDelay(period);
            delay = period;
        }
        setProcessExpiresFrequency(Math.max(1, period / delay));
    }

    /** The delay of the background thread that processes {@code container}: its own, or its nearest parent's. */
    private static int backgroundDelayOf(org.apache.catalina.Container container) {
        for (org.apache.catalina.Container processed = container; processed != null; processed = processed.getParent()) {
            if (processed.getBackgroundProcessorDelay() > 0) {
                return processed.getBackgroundProcessorDelay();
            }
        }
        return -1;
    }

    /**
     * With {@code expiryEvents}: expires, with Tomcat's {@code sessionDestroyed} and {@code valueUnbound},
     * each session this node's sweep ended in the store. A failed sweep leaves its buckets to a later one.
     */
    @Override
    public void processExpires() {
        super.processExpires();
        SessionStore current = store;
        if (current == null) {
            return;
        }
        List<StoredSession> ended;
        try {
            ended = current.sweepExpired();
        } catch (SessionStoreException e) {
            log.warn("The expiry sweep failed; its buckets are swept later: " + e.getMessage());
            return;
        }
        for (StoredSession session : ended) {
            HBaseSession expired = new HBaseSession(this);
            expired.restore(canonicalId(session.record().id()), current, session, getPersistAuthentication());
            expired.expireEndedInStore();
        }
    }

    @Override
    protected synchronized void stopInternal() throws LifecycleException {
        setState(LifecycleState.STOPPING);
        // Copies of requests still in flight are dropped, never expired: the sessions live on in HBase.
        sessions.clear();
        getContext().getServletContext().removeAttribute(SessionRevoker.CONTEXT_ATTRIBUTE);
        closeStore();
        super.stopInternal();
    }

    private void closeStore() {
        if (mbean != null) {
            mbean.close();
            mbean = null;
        }
        SessionStore closing = store;
        store = null;
        if (closing != null) {
            closing.close();
        }
    }

    @Override
    protected void destroyInternal() throws LifecycleException {
        removeValve(getContext());
        super.destroyInternal();
    }

    /** Sessions live in HBase: there is nothing to load when the context starts. */
    @Override
    public void load() {
    }

    /** Sessions live in HBase: there is nothing to write when the context stops. */
    @Override
    public void unload() {
    }

    private void addValve(Context context) {
        if (context != null) {
            valve = new HBaseSessionValve(this);
            context.getPipeline().addValve(valve);
        }
    }

    private void removeValve(Context context) {
        if (context != null && valve != null) {
            context.getPipeline().removeValve(valve);
            valve = null;
        }
    }

    /** Tomcat's own exclusions and the manager's attribute filters keep an attribute on the node. */
    private boolean storesAttribute(String name, Object value) {
        return !exclusionRules.excludes(name, value);
    }

    // ------------------------------------------------------------------ sessions

    @Override
    protected StandardSession getNewSession() {
        return new HBaseSession(this);
    }

    /**
     * A new session, always under a fresh id: an id the client proposed (Tomcat reuses a requested id
     * when the cookie path is "/") may be another session's, or an invalidated one.
     */
    @Override
    public Session createSession(String requestedId) {
        HBaseSession session = (HBaseSession) super.createSession(null);
        RequestSessions request = RequestSessions.current(this);
        SessionRecord record = SessionRecord.created(session.rawId(), Instant.ofEpochMilli(session.getCreationTime()),
                Duration.ofSeconds(session.getMaxInactiveInterval()));
        SessionStore opened = store();
        session.bindNew(opened, opened.newSession(record, request != null && request.isDegraded()),
                getPersistAuthentication());
        watchActivation(session);
        if (request != null) {
            request.created(session);
        }
        return session;
    }

    /**
     * The session for {@code id} (route suffix ignored), read from HBase once per request.
     *
     * @throws StoreUnavailableException when HBase cannot answer and failMode is {@code error}
     */
    @Override
    public Session findSession(String id) {
        if (id == null || store == null) {
            return null;
        }
        RequestSessions request = RequestSessions.current(this);
        if (RequestSessions.isProbing()) {
            return request == null ? null : request.lookup(id, () -> null);
        }
        if (request == null) {
            return RequestSessions.earlyLookup(this, id, () -> load(id, null), this::routeMovesHere);
        }
        return request.lookup(id, () -> load(id, request));
    }

    private HBaseSession load(String id, RequestSessions request) {
        String rawId = SessionIds.withoutRoute(id);
        SessionStore opened = store();
        Optional<StoredSession> loaded;
        try {
            loaded = opened.load(rawId, SessionIds.routeOf(id));
        } catch (StoreUnavailableException e) {
            if (!settings.get(Setting.FAIL_MODE).continuesWithoutSession()) {
                throw e;
            }
            log.warn("HBase is unavailable; the request goes on without its session (failMode=new_session): "
                    + e.getMessage());
            if (request != null) {
                request.degrade();
            }
            return null;
        }
        HBaseSession session = loaded.map(stored -> activate(rawId, opened, stored)).orElse(null);
        if (request != null && routeMovesHere(id, session)) {
            request.routeMoved(id, session);
        }
        return session;
    }

    /**
     * With {@code stickySessions}, whether the session found for {@code requestedId} (with another node's route, or
     * none) is at home here from its next save, so that its id must get this node's route.
     */
    private boolean routeMovesHere(String requestedId, HBaseSession session) {
        return session != null && settings.get(Setting.STICKY_SESSIONS) && !session.getIdInternal().equals(requestedId);
    }

    private HBaseSession activate(String rawId, SessionStore opened, StoredSession stored) {
        HBaseSession session = new HBaseSession(this);
        session.restore(canonicalId(rawId), opened, stored, getPersistAuthentication());
        watchActivation(session);
        add(session);
        return session;
    }

    /** Tomcat's id of a session: the store's id with this node's route. */
    private String canonicalId(String rawId) {
        String route = getEngine().getJvmRoute();
        return route == null || route.isEmpty() ? rawId : rawId + "." + route;
    }

    /** Attributes come to life in this JVM when first read: that is when they are activated. */
    private static void watchActivation(HBaseSession session) {
        session.stored().attributes().whenDecoded(value -> {
            if (value instanceof HttpSessionActivationListener listener) {
                listener.sessionDidActivate(new HttpSessionEvent(session.getSession()));
            }
        });
    }

    /**
     * Moves the stored session to the new id (new row written before the old one is deleted). A session
     * not stored yet has nothing to move: its first save creates it under the new id.
     */
    @Override
    protected void changeSessionId(Session session, String newId, boolean notifySessionListeners,
            boolean notifyContainerListeners) {
        HBaseSession copy = (HBaseSession) session;
        if (copy.stored().isStored()) {
            SaveResult moved = store().changeId(copy.stored(), copy.record(),
                    SessionIds.withoutRoute(newId));
            if (moved == SaveResult.GONE) {
                log.debug("A session was invalidated or revoked elsewhere while its id changed; not stored again");
                copy.setValid(false);
            }
        }
        RequestSessions request = RequestSessions.current(this);
        if (request != null) {
            request.idChanged(copy, newId);
        }
        super.changeSessionId(session, newId, notifySessionListeners, notifyContainerListeners);
    }

    /**
     * Says once per note name that a session note Tomcat (or a valve) set is not stored: it lives as long as the
     * request's copy of the session, and the next request, on any node, does not have it.
     */
    void noteStaysWithTheRequest(String note) {
        if (notesReported.add(note)) {
            log.warn("Session note " + note + " of context [" + getContext().getName() + "] is not stored with the "
                    + "session: it is gone when the request ends (docs/limits.md)");
        }
    }

    /**
     * Forgets a copy its request dropped. Concurrent requests on this node hold copies of their own under one
     * id: only the copy registered under its id is removed.
     */
    void forget(HBaseSession copy) {
        sessions.remove(copy.getIdInternal(), copy);
    }

    private SessionStore store() {
        SessionStore current = store;
        if (current == null) {
            throw new StoreUnavailableException("The HBase session manager of context [" + getContext().getName()
                    + "] is stopped", null, null);
        }
        return current;
    }

    /**
     * "Log out everywhere": deletes every session of {@code user} in every key scope, whichever node
     * holds it next. Returns how many were deleted.
     */
    public int revokeAll(String user) {
        return store().revokeAll(user);
    }

    /** What the store has done since the context started. */
    public StoreCounters counters() {
        SessionStore current = store;
        return current == null ? StoreCounters.none() : current.counters();
    }
}
