package io.hbasesessions.tomcat;

import io.hbasesessions.store.FailMode;
import io.hbasesessions.store.LoadedSession;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionAlreadyExistsException;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Session;
import org.apache.catalina.connector.Request;
import org.apache.catalina.session.ManagerBase;
import org.apache.catalina.session.StandardSession;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * Non-sticky Tomcat sessions kept in HBase:
 * {@code <Manager className="io.hbasesessions.tomcat.HBaseSessionManager" zookeeperQuorum="zk1,zk2,zk3"/>}.
 *
 * <p>Each request reads its session from HBase once, works on its own copy, and {@link HBaseSessionValve}
 * saves that copy when the request ends and drops it: no node keeps a session between requests, so any
 * node can serve the next one. What is written is decided by the store (only changed attributes,
 * debounced access-time touches, concurrent changes merged per attribute). Concurrent requests on one
 * node do not share a copy: each save must compare against the state its own request started from, or
 * a change made elsewhere in between could be undone.
 *
 * <p>Expiry is HBase's cell TTL plus the store's idle check on every load; this manager never scans
 * HBase. So {@code HttpSessionListener.sessionDestroyed} fires on {@code invalidate()} (on the node
 * that invalidates), never for a session that simply expires while idle: no node holds it then.
 *
 * <p>Every setting of the shared configuration vocabulary is an attribute; they are checked when the
 * context starts, which fails with the reason if one is wrong.
 */
public class HBaseSessionManager extends ManagerBase implements StoreAttributes {

    private static final Log log = LogFactory.getLog(HBaseSessionManager.class);
    private static final StoreCounters NO_COUNTERS =
            new StoreCounters(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

    private final ConfiguredSettings configured = new ConfiguredSettings();
    private HBaseSessionValve valve;
    private volatile StoreSettings settings;
    private volatile SessionStore store;

    public HBaseSessionManager() {
        // Another node must recognise a FORM or programmatic login, so the authenticator's cached
        // principal is stored by default (persistAuthentication="false" turns it off).
        setPersistAuthentication(true);
    }

    // ------------------------------------------------------------------ settings (shared vocabulary)

    @Override
    public void setStoreSetting(String name, String value) {
        configured.put(name, value);
    }

    // ------------------------------------------------------------------ lifecycle

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
        settings = configured.resolve(getContext());
        store = ConfiguredSettings.open(settings, getContext());
        getContext().getServletContext().setAttribute(SessionStore.REVOKE_ALL_CONTEXT_ATTRIBUTE,
                (ToIntFunction<String>) this::revokeAll);
        log.info("HBase sessions for context [" + getContext().getName() + "]: " + settings);
        setState(LifecycleState.STARTING);
    }

    @Override
    protected synchronized void stopInternal() throws LifecycleException {
        setState(LifecycleState.STOPPING);
        // Copies of requests still in flight are dropped, never expired: the sessions live on in HBase.
        sessions.clear();
        getContext().getServletContext().removeAttribute(SessionStore.REVOKE_ALL_CONTEXT_ATTRIBUTE);
        SessionStore closing = store;
        store = null;
        if (closing != null) {
            closing.close();
        }
        super.stopInternal();
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

    // ------------------------------------------------------------------ sessions

    @Override
    protected StandardSession getNewSession() {
        return new HBaseSession(this);
    }

    @Override
    public Session createSession(String sessionId) {
        HBaseSession session = (HBaseSession) super.createSession(sessionId);
        RequestSessions request = RequestSessions.current(this);
        if (request != null) {
            request.created(session);
        }
        return session;
    }

    /**
     * The session for {@code id} (route suffix ignored), read from HBase once per request. A lookup
     * outside a request (a connector thread checking several session cookies, JMX) gets a detached copy
     * that is never saved.
     *
     * @throws StoreUnavailableException when HBase cannot answer and failMode is {@code error}
     */
    @Override
    public Session findSession(String id) {
        if (id == null || store == null) {
            return null;
        }
        RequestSessions request = RequestSessions.current(this);
        if (request == null) {
            return loadDetached(id);
        }
        if (request.hasLookedUp(id)) {
            return request.lookedUp(id);
        }
        HBaseSession found = request.isStoreUnavailable() ? null : load(id, request);
        request.lookupResult(id, found);
        if (found != null) {
            add(found);
        }
        return found;
    }

    private HBaseSession loadDetached(String id) {
        HBaseSession found = load(id, null);
        if (found != null) {
            drop(found, true);
        }
        return found;
    }

    private HBaseSession load(String id, RequestSessions request) {
        Optional<LoadedSession> loaded;
        try {
            loaded = callStore(() -> store().load(SessionIds.raw(id)));
        } catch (StoreUnavailableException e) {
            if (settings.failMode() != FailMode.NEW_SESSION) {
                throw e;
            }
            log.warn("HBase is unavailable; the request continues without its session (failMode=new_session): "
                    + e.getMessage());
            if (request != null) {
                request.storeUnavailable();
            }
            return null;
        }
        return loaded.map(stored -> activate(id, stored)).orElse(null);
    }

    private HBaseSession activate(String id, LoadedSession stored) {
        HBaseSession session = new HBaseSession(this);
        session.restore(id, stored.record(), getPersistAuthentication());
        session.stored(stored);
        session.activate();
        return session;
    }

    /** Moves the stored session to the new id (new row written before the old one is deleted). */
    @Override
    protected void changeSessionId(Session session, String newId, boolean notifySessionListeners,
            boolean notifyContainerListeners) {
        HBaseSession copy = (HBaseSession) session;
        if (copy.isStored()) {
            SessionRecord current = RecordSession.toRecord(copy, getPersistAuthentication(), copy.stored().record());
            copy.stored(callStore(() -> store().changeId(copy.stored(), current, SessionIds.raw(newId))));
        }
        RequestSessions request = RequestSessions.current(this);
        if (request != null) {
            request.idChanged(copy, newId);
        }
        super.changeSessionId(session, newId, notifySessionListeners, notifyContainerListeners);
    }

    /** Invalidation: the stored session and its principal index entry go. */
    void deleteStored(HBaseSession session) {
        if (session.isStored()) {
            callStore(() -> store().delete(SessionIds.raw(session.getIdInternal())));
            session.stored(null);
        }
    }

    /**
     * Saves the request's session, then drops every copy the request held.
     *
     * @param lookUpUntouched also ask the request for its session when this manager saw no lookup on
     *     the request's threads (an asynchronous request may have used it on a thread of its own)
     * @throws SessionStoreException when the save fails; with failMode {@code new_session} an
     *     unavailable HBase is only logged, as the request already went on without a stored session
     */
    void endRequest(Request request, RequestSessions requestSessions, boolean lookUpUntouched) {
        HBaseSession current = requestSessions.isEmpty() && !lookUpUntouched ? null : sessionOf(request);
        boolean storeReachable = !requestSessions.isStoreUnavailable();
        try {
            if (current != null && storeReachable) {
                save(current);
            }
        } finally {
            for (HBaseSession copy : requestSessions.takeCopies()) {
                if (copy != current) {
                    drop(copy, storeReachable);
                }
            }
            if (current != null) {
                sessions.remove(current.getIdInternal(), current);
            }
        }
    }

    private HBaseSession sessionOf(Request request) {
        Session session = request.getSessionInternal(false);
        return session instanceof HBaseSession copy && copy.getManager() == this && copy.isValid() ? copy : null;
    }

    private void save(HBaseSession session) {
        session.passivate();
        SessionRecord record = RecordSession.toRecord(session, getPersistAuthentication(),
                session.isStored() ? session.stored().record() : null);
        try {
            if (session.isStored()) {
                SaveResult result = callStore(() -> store().save(session.stored(), record));
                if (result.outcome() == SaveResult.Outcome.GONE) {
                    log.debug("A session was invalidated or expired elsewhere during the request; not saved");
                }
            } else {
                callStore(() -> store().create(record));
            }
        } catch (StoreUnavailableException e) {
            if (settings.failMode() != FailMode.NEW_SESSION) {
                throw e;
            }
            log.warn("HBase is unavailable; this request's session changes were not saved (failMode=new_session): "
                    + e.getMessage());
        } catch (SessionAlreadyExistsException e) {
            log.warn("A new session was not stored: its id is already taken in HBase. " + e.getMessage());
        }
    }

    /** Drops a copy that was not saved, giving back a pessimistic lease its load took (if HBase can be asked). */
    private void drop(HBaseSession copy, boolean giveBackLease) {
        sessions.remove(copy.getIdInternal(), copy);
        SessionStore current = store;
        if (giveBackLease && copy.isStored() && copy.isValid() && current != null) {
            try {
                callStore(() -> {
                    current.release(copy.stored());
                    return null;
                });
            } catch (SessionStoreException e) {
                log.warn("Could not give back a session lease; it ends with its timeout: " + e.getMessage());
            }
        }
    }

    private SessionStore store() {
        SessionStore current = store;
        if (current == null) {
            throw new StoreUnavailableException("The HBase session manager of context [" + getContext().getName()
                    + "] is stopped", null, null);
        }
        return current;
    }

    private <T> T callStore(Supplier<T> call) {
        return WebappClassLoader.call(getContext(), call);
    }

    /**
     * "Log out everywhere": deletes every session of {@code principal} in every key scope, whichever
     * node holds it next. Returns how many were deleted.
     */
    public int revokeAll(String principal) {
        return callStore(() -> store().revokeAll(principal));
    }

    // ------------------------------------------------------------------ JMX

    /** The settings in force, by their configuration names. */
    public String getStoreSettings() {
        return String.valueOf(settings);
    }

    /** What the store has done since the context started. */
    public StoreCounters counters() {
        SessionStore current = store;
        return current == null ? NO_COUNTERS : current.counters();
    }

    public long getStoreLoads() {
        return counters().loads();
    }

    public long getStoreLoadMisses() {
        return counters().loadMisses();
    }

    public long getStoreExpiredOnLoad() {
        return counters().expiredOnLoad();
    }

    public long getStoreUnreadableOnLoad() {
        return counters().unreadableOnLoad();
    }

    public long getStoreCreates() {
        return counters().creates();
    }

    public long getStoreFullWrites() {
        return counters().fullWrites();
    }

    public long getStoreTouches() {
        return counters().touches();
    }

    public long getStoreTouchesSkipped() {
        return counters().touchesSkipped();
    }

    public long getStoreUnchangedSaves() {
        return counters().unchangedSaves();
    }

    public long getStoreConflicts() {
        return counters().conflicts();
    }

    public long getStoreConflictRetries() {
        return counters().conflictRetries();
    }

    public long getStoreDeletes() {
        return counters().deletes();
    }

    public long getStoreIdChanges() {
        return counters().idChanges();
    }

    public long getStoreRevocations() {
        return counters().revocations();
    }

    public long getStoreBytesWritten() {
        return counters().bytesWritten();
    }

    public long getStoreErrors() {
        return counters().errors();
    }

    public long getStoreSessionWrites() {
        return counters().sessionWrites();
    }
}
