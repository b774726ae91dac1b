package io.hbasesessions.jetty;

import io.hbasesessions.api.SessionRevoker;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.KeyScopes;
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
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.security.authentication.SessionAuthentication;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.session.AbstractSessionDataStore;
import org.eclipse.jetty.session.AbstractSessionManager;
import org.eclipse.jetty.session.HouseKeeper;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.SessionContext;
import org.eclipse.jetty.session.SessionData;
import org.eclipse.jetty.util.annotation.ManagedAttribute;
import org.eclipse.jetty.util.annotation.ManagedObject;
import org.eclipse.jetty.util.thread.AutoLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's {@code SessionDataStore} on the shared HBase store: a translation. The rules (what changed,
 * touch debouncing, conflict merging, expiry, failMode) live in the store; Jetty's base class keeps its
 * protocol. Expiry is the store's check on every read plus HBase's TTL, so nothing here scans the
 * table. With {@code expiryEvents}, {@link #doGetExpired} returns the sessions the store's sweep of its
 * due expiry buckets ended, and hands each back once to Jetty's expiry ({@link #doLoad}), which fires
 * its events; {@link #doCleanOrphans} has nothing to do.
 *
 * <p>Each request's session is saved before its response is committed ({@link RequestGuard}); a
 * store failure answers the request with the store's failure response. A login is kept as the store's
 * neutral principal, never as Jetty's {@code SessionAuthentication} (which holds the password on Jetty
 * 12.0), so a login on a Tomcat node of the same key scope is a login here, and the other way round.
 *
 * <p>Use it with a session cache that does not keep sessions between requests (the
 * {@code session-store-hbase} module sets one up) whenever requests of one session may reach more
 * than one node: a cached copy is not refreshed from HBase.
 */
@ManagedObject("HBase session data store")
public class HBaseSessionDataStore extends AbstractSessionDataStore {

    private static final Logger LOG = LoggerFactory.getLogger(HBaseSessionDataStore.class);

    private final Map<String, String> namedSettings;
    /** Old ids of sessions whose id Jetty is renewing; their delete waits for the new row (see {@link #delete}). */
    private final Set<String> idsBeingRenewed = ConcurrentHashMap.newKeySet();
    /** Sessions the last expiry sweep ended, until Jetty's scavenger loads them to expire them (see {@link #doGetExpired}). */
    private final Map<String, StoredSession> endedBySweep = new ConcurrentHashMap<>();
    private final RequestGuard guard = new RequestGuard(this::flushSessionOf);
    private StoreSettings settings;
    private SessionStore store;
    private StoreAvailability availability;
    private StoreMBean.Registration mbean;
    private ClassLoader applicationClassLoader;

    /**
     * @param namedSettings store settings by their configuration names ({@code zookeeperQuorum},
     *     {@code touchIntervalSeconds}, ...); {@code keyScope} defaults to the context path, plus
     *     {@code @virtualHost} when the context has virtual hosts. Checked when the store starts.
     */
    public HBaseSessionDataStore(Map<String, String> namedSettings) {
        this.namedSettings = Map.copyOf(namedSettings);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        StoreSettings.Builder builder = StoreSettings.builder();
        namedSettings.forEach(builder::set);
        settings = builder.defaultKeyScope(defaultKeyScope(_context)).build();
        availability = new StoreAvailability("keyScope '" + settings.get(Setting.KEY_SCOPE) + "'");
        store = SessionStores.open(settings, new Webapp(webappClassLoader(), Container.JETTY,
                (name, value) -> !SessionAuthentication.AUTHENTICATED_ATTRIBUTE.equals(name)).onRoute(_context.getWorkerName()));
        mbean = StoreMBean.register(store, settings, "Jetty/" + _context.getWorkerName(),
                _context.getVhost() + _context.getCanonicalContextPath());
        if (settings.get(Setting.EXPIRY_EVENTS)) {
            paceExpirySweeps();
        }
        contextHandler().addEventListener(guard);
        _context.getContext().setAttribute(SessionRevoker.CONTEXT_ATTRIBUTE, (SessionRevoker) store::revokeAll);
        LOG.info("Sessions are stored in HBase: {}", settings);
    }

    @Override
    protected void doStop() throws Exception {
        contextHandler().removeEventListener(guard);
        _context.getContext().removeAttribute(SessionRevoker.CONTEXT_ATTRIBUTE);
        mbean.close();
        store.close();
        store = null;
        super.doStop();
    }

    /**
     * Jetty asks {@link #doGetExpired} on a house keeper's scavenge, at most once per grace period: with
     * {@code expiryEvents} scavenges must come at least every half event delay, and ask every time. The house keeper is the server's:
     * shortening its interval makes every context scavenge that often (cheap with the HBase session cache,
     * which holds no sessions).
     */
    private void paceExpirySweeps() throws Exception {
        int period = settings.expirySweepPeriodSeconds();
        // Asked only when more than a grace period passed since the last time: half a period, so every scavenge asks.
        int gracePeriod = Math.max(1, period / 2);
        if (getGracePeriodSec() > gracePeriod) {
            setGracePeriodSec(gracePeriod);
        }
        HouseKeeper houseKeeper = _context.getSessionManager().getSessionIdManager().getSessionHouseKeeper();
        if (houseKeeper != null && houseKeeper.getIntervalSec() > period) {
            LOG.info("The session house keeper scavenged every {} s, longer than half of expiryEventDelaySeconds; "
                    + "it now scavenges every {} s", houseKeeper.getIntervalSec(), period);
            houseKeeper.setIntervalSec(period);
        }
    }

    private ContextHandler contextHandler() {
        return ((ContextHandler.ScopedContext) _context.getContext()).getContextHandler();
    }

    /** The store's activity since this context started (reads, writes by kind, skipped touches, conflicts). */
    @ManagedAttribute(value = "HBase session store counters", readonly = true)
    public StoreCounters getCounters() {
        return store.counters();
    }

    /** "Log out everywhere": deletes every session of {@code user} in every key scope. Returns how many. */
    public int revokeAll(String user) {
        return store.revokeAll(user);
    }

    /**
     * Sessions are serialized, but Jetty's passivation events for a passivating store read every attribute of every
     * session at load and at release: {@link HBaseSessionCache} sends the events instead, for the values a request
     * actually decodes ({@link ActivationEvents}).
     */
    @Override
    public boolean isPassivating() {
        return false;
    }

    /**
     * Reads a session. While HBase is down, the request goes on without it; with {@code failMode=error}
     * its response is the 503 failure response, whatever the application answers.
     */
    @Override
    public SessionData doLoad(String id) {
        StoredSession ended = endedBySweep.get(id);
        if (ended != null) {
            return toSessionData(ended);
        }
        Optional<RequestGuard.RequestState> request = guard.current();
        try {
            String route = guard.currentRequest().map(current -> requestedRoute(current, id)).orElse(null);
            return availability.call(() -> store.load(id, route)).map(this::toSessionData).orElse(null);
        } catch (StoreUnavailableException e) {
            if (settings.get(Setting.FAIL_MODE).continuesWithoutSession()) {
                request.ifPresent(RequestGuard.RequestState::degrade);
            } else {
                request.ifPresent(state -> state.failed(e));
            }
            return null;
        }
    }

    /**
     * The route of the id the request carried for session {@code id} (its cookie, or the URL's path parameter), or
     * null: Jetty hands its store the id without it. With {@code stickySessions} it says whether this node's copy
     * may answer; a session that moves here gets this node's route from Jetty itself, which sends a new cookie when
     * the requested id's route is not its worker name.
     */
    private String requestedRoute(Request request, String id) {
        Stream<String> fromCookies = _context.getSessionManager() instanceof AbstractSessionManager manager
                ? Request.getCookies(request).stream().filter(cookie -> cookie.getName().equals(manager.getSessionCookie()))
                        .map(HttpCookie::getValue)
                : Stream.empty();
        String pathParameters = request.getHttpURI().getParam();
        Stream<String> fromPath = pathParameters == null ? Stream.empty() : Arrays.stream(pathParameters.split(";"))
                .map(parameter -> parameter.substring(parameter.indexOf('=') + 1));
        return Stream.concat(fromCookies, fromPath).filter(requested -> id.equals(SessionIds.withoutRoute(requested)))
                .map(SessionIds::routeOf).filter(Objects::nonNull).findFirst().orElse(null);
    }

    /**
     * Data for a session Jetty creates: transient (never stored) when this request could not read its
     * session and {@code failMode=new_session}; refused with 503 when it could not and {@code failMode=error}.
     */
    @Override
    public SessionData newSessionData(String id, long created, long accessed, long lastAccessed, long maxInactiveMs) {
        Optional<RequestGuard.RequestState> request = guard.current();
        if (request.map(RequestGuard.RequestState::failure).isPresent()) {
            throw new HttpException.RuntimeException(503, "The session store is unavailable");
        }
        SessionRecord record = SessionRecord.created(id, Instant.ofEpochMilli(created), Duration.ofMillis(maxInactiveMs));
        StoredSession session = store.newSession(record, request.map(RequestGuard.RequestState::isDegraded).orElse(false));
        return new HBaseSessionData(session, _context.getCanonicalContextPath(), _context.getVhost(), accessed,
                lastAccessed, idsBeingRenewed::add);
    }

    /**
     * Stores through Jetty's own paths: when the request leaves the session, and when Jetty renews its
     * id. Nothing is thrown, because Jetty logs the raw session id with whatever its store throws. A
     * store failure is the request's failure instead, answered by the {@link RequestGuard} if the
     * response is not committed yet, and logged.
     */
    @Override
    public void doStore(String id, SessionData data, long lastSaveTime) {
        if (guard.current().map(RequestGuard.RequestState::hasFailed).orElse(false)) {
            // The request was answered with its failure; the stored session stays as it was, and trying
            // again would only wait for HBase once more.
            return;
        }
        try {
            save(id, data, lastSaveTime);
        } catch (SessionStoreException e) {
            failRequest(e, "A session was not saved");
        } catch (RuntimeException e) {
            LOG.error("A session was not saved", e);
        }
    }

    private void failRequest(SessionStoreException failure, String what) {
        guard.current().ifPresent(request -> request.failed(failure));
        LOG.warn("{}: {}", what, failure.getMessage());
    }

    /** The request this thread serves saves its session before its response is committed, from now on. */
    void guardCurrentRequest() {
        guard.current();
    }

    /** The session the request this thread serves holds under {@code id}; null if none. */
    ManagedSession heldByCurrentRequest(String id) {
        ManagedSession held = guard.currentRequest().map(_context.getSessionManager()::getManagedSession).orElse(null);
        return held != null && id.equals(held.getId()) ? held : null;
    }

    /**
     * The request's response is about to be committed: save its session now, and record a failure. Data
     * this store did not hand out came through a store stacked in front of it (Jetty's caching store):
     * it is saved through that store, so its cache holds what HBase holds, by Jetty's dirty rules.
     */
    private void flushSessionOf(Request request, RequestGuard.RequestState state) {
        ManagedSession session = _context.getSessionManager().getManagedSession(request);
        if (session == null) {
            return;
        }
        try (AutoLock ignored = session.lock()) {
            if (!session.isValid() || state.hasFailed()) {
                return;
            }
            if (session.getSessionData() instanceof HBaseSessionData data) {
                save(session.getId(), data, data.getLastSaved());
                // As Jetty's own store() would: its store when the request leaves the session is an update.
                data.setLastSaved(System.currentTimeMillis());
            } else {
                _context.getSessionManager().getSessionCache().getSessionDataStore()
                        .store(session.getId(), session.getSessionData());
            }
        } catch (SessionStoreException e) {
            state.failed(e);
        } catch (Exception e) {
            LOG.error("A session could not be saved", e);
            state.failed(new SessionStoreException("The session could not be saved", null, e));
        }
    }

    private void save(String id, SessionData data, long lastSaveTime) {
        if (!(data instanceof HBaseSessionData session)) {
            // Data that did not come from this store (a caching store stacked in front): its whole state.
            availability.call(() -> store.saveWhole(recordOf(id, data), data.getAllAttributes(),
                    lastSaveTime > 0));
            return;
        }
        if (session.isGone() || session.stored().isTransient()) {
            return;
        }
        StoredSession stored = session.stored();
        SessionRecord current = recordOf(id, data);
        SaveResult result;
        if (stored.isStored() && !stored.record().id().equals(id)) {
            String oldId = stored.record().id();
            try {
                result = availability.call(() -> store.changeId(stored, current, id));
            } finally {
                idsBeingRenewed.remove(oldId);
            }
        } else if (!stored.isStored() && lastSaveTime > 0) {
            // Jetty stored this data before, though not through this copy (another store instance wrote the row, or
            // this store could not write it then): by Jetty's contract an update of the stored session, never a create.
            result = availability.call(() -> store.saveWhole(current, data.getAllAttributes(), true));
        } else {
            result = availability.call(() -> store.save(stored, current));
        }
        if (result == SaveResult.GONE) {
            LOG.debug("Session was invalidated or revoked elsewhere while in use here; not stored again");
            session.markGone();
        }
    }

    /**
     * The record of Jetty's data: Jetty's {@code accessed} (the start of the latest request) is the last
     * access. Jetty's own login attribute, when present, is the login; when another container's login was
     * loaded it comes back as that attribute, so its absence here is a logout.
     */
    private static SessionRecord recordOf(String id, SessionData data) {
        return new SessionRecord(id, Instant.ofEpochMilli(data.getCreated()), Instant.ofEpochMilli(data.getAccessed()),
                Duration.ofMillis(data.getMaxInactiveMs()),
                JettyLogins.loginOf(data.getAttribute(SessionAuthentication.AUTHENTICATED_ATTRIBUTE)));
    }

    /**
     * Deletes a session, unless Jetty is renewing its id: Jetty deletes the old id before it stores the
     * new one, and a failure in between would lose the session. The store that follows moves it,
     * writing the new row before it deletes the old one. A failed delete fails the request (as in
     * {@link #doStore}, Jetty would log the raw id with an exception).
     */
    @Override
    public boolean delete(String id) {
        if (idsBeingRenewed.remove(id) || endedBySweep.remove(id) != null) {
            return true;
        }
        ManagedSession held = heldByCurrentRequest(id);
        try {
            if (held != null && held.getSessionData() instanceof HBaseSessionData data && data.stored().isStored()
                    && id.equals(data.stored().record().id())) {
                return availability.call(() -> store.delete(data.stored()));
            }
            return availability.call(() -> store.delete(id));
        } catch (SessionStoreException e) {
            failRequest(e, "A session was not deleted");
            return false;
        }
    }

    /**
     * One cheap existence check, on Jetty's id-generation path; unknown while HBase is down, so "not in
     * use", and not asked at all in a request that already found HBase down (it would wait once more).
     */
    @Override
    public boolean doExists(String id) {
        if (guard.current().map(RequestGuard.RequestState::foundStoreUnavailable).orElse(false)) {
            return false;
        }
        try {
            return availability.call(() -> store.liveAmong(Set.of(id))).contains(id);
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    /**
     * Of the ids this node's cache thinks expired, those the store no longer holds as live (another node
     * may have used the session since): one batch of reads. While HBase is down, none is declared expired.
     */
    @Override
    public Set<String> doCheckExpired(Set<String> candidates, long time) {
        try {
            Set<String> expired = new HashSet<>(candidates);
            expired.removeAll(availability.call(() -> store.liveAmong(candidates)));
            return expired;
        } catch (StoreUnavailableException e) {
            LOG.debug("Expiry check stopped: the session store is unavailable", e);
            return Set.of();
        }
    }

    /**
     * With {@code expiryEvents}: the sessions the store's sweep of its due expiry buckets ended, already
     * deleted. Jetty's scavenger expires each at once ({@code SessionIdManager.expireAll}): its session cache
     * loads it ({@link #doLoad} hands back the ended session once), fires {@code sessionDestroyed} and
     * {@code valueUnbound}, and deletes it ({@link #delete} then asks HBase nothing). Without
     * {@code expiryEvents} HBase's TTL removes sessions no node manages, and the table is never scanned.
     */
    @Override
    public Set<String> doGetExpired(long before) {
        // Jetty expired whatever it was going to of the last sweep's sessions before it asked again.
        endedBySweep.clear();
        try {
            for (StoredSession ended : availability.call(store::sweepExpired)) {
                endedBySweep.put(ended.record().id(), ended);
            }
        } catch (StoreUnavailableException e) {
            LOG.warn("The expiry sweep failed; its buckets are swept later: {}", e.getMessage());
        }
        return Set.copyOf(endedBySweep.keySet());
    }

    /** Whether Jetty's expiry is about to expire this session, which the store's sweep ended. */
    boolean isEndedBySweep(String id) {
        return endedBySweep.containsKey(id);
    }

    /** HBase's TTL removes other contexts' expired sessions too. */
    @Override
    public void doCleanOrphans(long time) {
        // Nothing to do: see above.
    }

    private HBaseSessionData toSessionData(StoredSession loaded) {
        long lastAccess = loaded.record().lastAccessTime().toEpochMilli();
        HBaseSessionData data = new HBaseSessionData(loaded, _context.getCanonicalContextPath(), _context.getVhost(),
                lastAccess, lastAccess, idsBeingRenewed::add);
        data.calcAndSetExpiry(lastAccess);
        data.setLastSaved(lastAccess);
        loaded.record().login().ifPresent(login -> loaded.attributes().put(SessionAuthentication.AUTHENTICATED_ATTRIBUTE,
                JettyLogins.sessionAuthenticationOf(login)));
        return data;
    }

    /** As {@link HBaseSessionDataStoreFactory#setApplicationClassLoader}; null: the context's. */
    void setApplicationClassLoader(ClassLoader loader) {
        this.applicationClassLoader = loader;
    }

    private ClassLoader webappClassLoader() {
        if (applicationClassLoader != null) {
            return applicationClassLoader;
        }
        ClassLoader contextLoader = _context.getContext() == null ? null : _context.getContext().getClassLoader();
        return contextLoader != null ? contextLoader : Thread.currentThread().getContextClassLoader();
    }

    /** The context path ({@code /} for the root), plus {@code @host} when the context has virtual hosts. */
    static String defaultKeyScope(SessionContext context) {
        String contextPath = context.getContext() == null ? "" : context.getContext().getContextPath();
        String vhost = context.getVhost();
        return KeyScopes.defaultFor(Optional.ofNullable(vhost).filter(host -> !SessionContext.NULL_VHOST.equals(host)),
                contextPath);
    }
}
