package io.hbasesessions.jetty;

import io.hbasesessions.store.FailMode;
import io.hbasesessions.store.LoadedSession;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionAlreadyExistsException;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.session.AbstractSessionDataStore;
import org.eclipse.jetty.session.SessionContext;
import org.eclipse.jetty.session.SessionData;
import org.eclipse.jetty.util.annotation.ManagedAttribute;
import org.eclipse.jetty.util.annotation.ManagedObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jetty's {@code SessionDataStore} on the shared HBase store: a translation. The rules (dirty check
 * on serialized bytes, touch debouncing, conflict merging, idle expiry) live in the store; Jetty's
 * base class keeps its protocol. Expiry is HBase's TTL plus the store's idle check, so nothing here
 * scans the table: {@link #doGetExpired} and {@link #doCleanOrphans} have nothing to do.
 *
 * <p>Use it with a session cache that does not keep sessions between requests (a
 * {@code DefaultSessionCache} with {@code evictionPolicy=0}, or a {@code NullSessionCache}) whenever
 * requests of one session may reach more than one node: a cached copy is not refreshed from HBase.
 */
@ManagedObject("HBase session data store")
public class HBaseSessionDataStore extends AbstractSessionDataStore {

    private static final Logger LOG = LoggerFactory.getLogger(HBaseSessionDataStore.class);
    /** Any id: probing the store only needs an answer, and no session will ever have this one. */
    private static final String PROBE_ID = "availability-probe";

    private final Map<String, String> namedSettings;
    /** Old ids of sessions whose id Jetty is renewing; their delete waits for the new row (see {@link #delete}). */
    private final Set<String> idsBeingRenewed = ConcurrentHashMap.newKeySet();
    private SessionStore store;
    private FailMode failMode;
    private StoreAvailability availability;
    private ClassLoader sessionClassLoader;

    /**
     * @param namedSettings store settings by their configuration names ({@code zookeeperQuorum},
     *     {@code touchIntervalSeconds}, ...); {@code keyScope} defaults to this context's path, plus
     *     {@code @virtualHost} when the context has virtual hosts. Checked when the store starts.
     */
    public HBaseSessionDataStore(Map<String, String> namedSettings) {
        this.namedSettings = Map.copyOf(namedSettings);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        StoreSettings settings = settingsFor(_context);
        sessionClassLoader = new SessionClassLoader(webappClassLoader(), SessionData.class.getClassLoader());
        availability = new StoreAvailability("keyScope '" + settings.keyScope() + "'");
        failMode = settings.failMode();
        store = SessionStores.open(settings);
        _context.getContext().setAttribute(SessionStore.REVOKE_ALL_CONTEXT_ATTRIBUTE,
                (ToIntFunction<String>) this::revokeAll);
        LOG.info("Sessions are stored in HBase: {}", settings);
    }

    @Override
    protected void doStop() throws Exception {
        _context.getContext().removeAttribute(SessionStore.REVOKE_ALL_CONTEXT_ATTRIBUTE);
        store.close();
        store = null;
        super.doStop();
    }

    /** The store's activity since this context started (reads, writes by kind, skipped touches, conflicts). */
    @ManagedAttribute(value = "HBase session store counters", readonly = true)
    public StoreCounters getCounters() {
        return store.counters();
    }

    /**
     * "Log out everywhere": deletes every session of {@code principal} in every key scope, whichever
     * node holds it next. Returns how many were deleted.
     */
    public int revokeAll(String principal) {
        return storeCall(() -> store.revokeAll(principal));
    }

    /** Sessions are serialized, so activation listeners fire around every load and store. */
    @Override
    public boolean isPassivating() {
        return true;
    }

    @Override
    public SessionData doLoad(String id) {
        try {
            return storeCall(() -> store.load(id)).map(this::toSessionData).orElse(null);
        } catch (StoreUnavailableException e) {
            // Logged once per outage by StoreAvailability; the request goes on without its session.
            return null;
        }
    }

    /**
     * Data for a session Jetty creates. While HBase is unreachable the configured {@code failMode}
     * decides: {@code error} answers 503 (the client keeps its cookie, its stored session is intact),
     * {@code new_session} gives a session that lives on this node only and is never stored.
     */
    @Override
    public SessionData newSessionData(String id, long created, long accessed, long lastAccessed, long maxInactiveMs) {
        HBaseSessionData data = emptySessionData(id, created, accessed, lastAccessed, maxInactiveMs);
        if (!isStoreReachable()) {
            if (failMode == FailMode.ERROR) {
                throw new HttpException.RuntimeException(HttpStatus.SERVICE_UNAVAILABLE_503,
                        "The session store is unavailable");
            }
            data.markUnstorable();
        }
        return data;
    }

    @Override
    public void doStore(String id, SessionData data, long lastSaveTime) {
        HBaseSessionData session = (HBaseSessionData) data;
        if (session.isUnstorable()) {
            return;
        }
        LoadedSession stored = session.stored();
        SessionRecord current = SessionDataMapping.toRecord(id, session, stored == null ? null : stored.record());
        if (stored == null) {
            session.stored(storeCall(() -> store.create(current)));
        } else if (!stored.record().id().equals(id)) {
            moveToNewId(session, current);
        } else {
            keepResultOf(session, storeCall(() -> store.save(stored, current)));
        }
    }

    /**
     * Deletes a session, unless Jetty is renewing its id: Jetty deletes the old id before it stores the
     * new one, and a failure in between would lose the session. The store that follows moves it,
     * writing the new row before it deletes the old one.
     */
    @Override
    public boolean delete(String id) {
        if (idsBeingRenewed.remove(id)) {
            return true;
        }
        return storeCall(() -> store.delete(id));
    }

    /** One cheap existence check, on Jetty's id-generation path; unknown while HBase is down, so "not in use". */
    @Override
    public boolean doExists(String id) {
        try {
            return storeCall(() -> store.exists(id));
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    /**
     * Of the ids this node's cache thinks expired, those the store no longer holds as live: another node
     * may have used the session since. While HBase is down, none is declared expired.
     */
    @Override
    public Set<String> doCheckExpired(Set<String> candidates, long time) {
        Set<String> expired = new HashSet<>();
        try {
            for (String id : candidates) {
                if (!storeCall(() -> store.exists(id))) {
                    expired.add(id);
                }
            }
        } catch (StoreUnavailableException e) {
            LOG.debug("Expiry check stopped: the session store is unavailable", e);
        }
        return expired;
    }

    /** HBase's TTL removes sessions that no node manages; the table is never scanned for them. */
    @Override
    public Set<String> doGetExpired(long before) {
        return Set.of();
    }

    /** HBase's TTL removes other contexts' expired sessions too. */
    @Override
    public void doCleanOrphans(long time) {
        // Nothing to do: see above.
    }

    private void moveToNewId(HBaseSessionData session, SessionRecord current) {
        LoadedSession stored = session.stored();
        try {
            session.stored(storeCall(() -> store.changeId(stored, current, current.id())));
        } catch (SessionAlreadyExistsException e) {
            // Another copy of this session (a NullSessionCache loads one for the renewal) moved it already:
            // this copy's changes go on top of the moved session.
            Optional<LoadedSession> moved = storeCall(() -> store.load(current.id()));
            moved.ifPresentOrElse(
                    newRow -> keepResultOf(session, storeCall(() -> store.save(newRow, current))),
                    session::markUnstorable);
        } finally {
            idsBeingRenewed.remove(stored.record().id());
        }
    }

    private void keepResultOf(HBaseSessionData session, SaveResult result) {
        if (result.outcome() == SaveResult.Outcome.GONE) {
            LOG.debug("Session was invalidated or expired elsewhere while in use here; not stored again");
            session.markUnstorable();
            return;
        }
        LoadedSession written = result.session().orElseThrow();
        if (result.outcome() == SaveResult.Outcome.MERGED) {
            SessionDataMapping.takeAttributesOf(written.record(), session);
        }
        session.stored(written);
    }

    private HBaseSessionData toSessionData(LoadedSession loaded) {
        SessionRecord record = loaded.record();
        long lastAccess = record.lastAccessTime().toEpochMilli();
        HBaseSessionData data = emptySessionData(record.id(), record.creationTime().toEpochMilli(), lastAccess,
                lastAccess, record.maxInactiveInterval().toMillis());
        SessionDataMapping.copyInto(record, data);
        data.stored(loaded);
        return data;
    }

    private HBaseSessionData emptySessionData(String id, long created, long accessed, long lastAccessed,
            long maxInactiveMs) {
        return new HBaseSessionData(id, _context.getCanonicalContextPath(), _context.getVhost(), created, accessed,
                lastAccessed, maxInactiveMs, idsBeingRenewed::add);
    }

    private boolean isStoreReachable() {
        if (availability.isAvailable()) {
            return true;
        }
        try {
            storeCall(() -> store.exists(PROBE_ID));
            return true;
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    /**
     * Runs a store call with the class loader attributes are decoded with, whatever thread Jetty calls
     * from (a request, the scavenger), and records whether HBase answered.
     */
    private <T> T storeCall(Supplier<T> call) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(sessionClassLoader);
        try {
            return availability.call(call);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private ClassLoader webappClassLoader() {
        ClassLoader contextLoader = _context.getContext() == null ? null : _context.getContext().getClassLoader();
        return contextLoader != null ? contextLoader : Thread.currentThread().getContextClassLoader();
    }

    private StoreSettings settingsFor(SessionContext context) {
        StoreSettings.Builder builder = StoreSettings.builder();
        namedSettings.forEach(builder::set);
        if (!namedSettings.containsKey("keyScope")) {
            builder.keyScope(defaultKeyScope(context));
        }
        return builder.build();
    }

    /** The context path ({@code /} for the root), plus {@code @host} when the context has virtual hosts. */
    static String defaultKeyScope(SessionContext context) {
        String contextPath = context.getContext() == null ? "" : context.getContext().getContextPath();
        String path = contextPath == null || contextPath.isEmpty() ? "/" : contextPath;
        String vhost = context.getVhost();
        return vhost == null || SessionContext.NULL_VHOST.equals(vhost) ? path : path + "@" + vhost;
    }
}
