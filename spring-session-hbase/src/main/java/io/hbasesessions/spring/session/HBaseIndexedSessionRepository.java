package io.hbasesessions.spring.session;

import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreUnavailableException;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.session.FindByIndexNameSessionRepository;
import org.springframework.session.FlushMode;
import org.springframework.session.MapSession;
import org.springframework.session.ReactiveFindByIndexNameSessionRepository;
import org.springframework.session.SaveMode;
import org.springframework.session.SessionIdGenerator;
import org.springframework.session.UuidSessionIdGenerator;
import org.springframework.session.events.AbstractSessionEvent;
import org.springframework.session.events.SessionCreatedEvent;
import org.springframework.session.events.SessionDeletedEvent;
import org.springframework.session.events.SessionExpiredEvent;

/**
 * Spring Session's indexed {@code SessionRepository} on the shared HBase store: a session is the same row, format and
 * user index entry as one the Tomcat, Jetty or Shiro adapter writes for the same {@code keyScope}; the store's rules
 * apply unchanged (only what changed is written, concurrent requests' attribute changes are merged, idle sessions
 * end by the check on every read and HBase's TTL removes them, every call bounded by {@code operationTimeoutMillis}).
 * A translation: every rule lives in the store.
 *
 * <p><b>Session system.</b> Every row names the session system that wrote it, and a store of another system sees
 * no session in it. By default ({@link SessionSystem#SPRING_SESSION}) Spring Session's rows are a system of their own,
 * as Shiro's are: a Tomcat or Jetty store installed server-wide in front of the same application never reads, ends
 * or overwrites them, even with the same key scope and cookie name. Applications that share a key scope with a
 * Tomcat or Jetty application on purpose choose {@link SessionSystem#SHARED_WITH_CONTAINERS}: the rows are then the
 * containers' sessions, which each reads and writes. Why a choice and not a rule: the store tells applications apart
 * by key scope and session mechanisms by session system. A server-wide container store in front of this application
 * and a container application elsewhere that shares this key scope on purpose look the same to the store (same scope,
 * servlet system); only the application knows which of the two it has, as Shiro's DAO does (its own system always).
 *
 * <p>One jar serves Spring Session 3.5 (Boot 3.5) and 4.0 (Boot 4.0): it uses only what both have unchanged.
 *
 * <p><b>Principal index.</b> {@link #findByPrincipalName} and {@link #findByIndexNameAndIndexValue} with
 * {@link #PRINCIPAL_NAME_INDEX_NAME} read the store's user index (the one "log out everywhere" uses). The indexed user
 * is the {@link #PRINCIPAL_NAME_INDEX_NAME} attribute (or the reactive API's, spelt otherwise), else Spring Security's
 * {@code SPRING_SECURITY_CONTEXT} ({@code principalAttribute}, unless set to something else). Spring Security expires
 * a session by its id, so these stores keep each id in its index entry, sealed as the expiry index's are (encrypted
 * whenever there is a {@code stateKeyFile}); other indexes find nothing.
 *
 * <p><b>Events.</b> {@code SessionCreatedEvent} when a new session is first stored, {@code SessionDeletedEvent} when
 * {@link #deleteById} deletes one, and with {@code expiryEvents} {@code SessionExpiredEvent} once across the fleet for
 * each session that idled out ({@link #sweepExpired()}). {@link #revokeAll} publishes a {@code SessionDeletedEvent}
 * for each session of this key scope it ended. Events are published on the node that deleted or swept.
 *
 * <p><b>Save modes.</b> The store writes an attribute when this request set it, or read it and its encoding changed
 * (an object changed in place), and never one it only read: Spring's {@link SaveMode#ON_SET_ATTRIBUTE} (the default)
 * and {@link SaveMode#ON_GET_ATTRIBUTE} both mean that here. {@link SaveMode#ALWAYS} is refused: writing every
 * attribute would put back what concurrent requests changed, which the store's merge exists to prevent.
 */
public final class HBaseIndexedSessionRepository implements FindByIndexNameSessionRepository<HBaseSession>,
        AutoCloseable {

    private static final System.Logger LOG = System.getLogger(HBaseIndexedSessionRepository.class.getName());
    /** Where Spring Security's {@code HttpSessionSecurityContextRepository} keeps the login. */
    static final String SPRING_SECURITY_CONTEXT = "SPRING_SECURITY_CONTEXT";
    /**
     * The indexed user by default: the explicit principal name (under the servlet API's name, then the reactive API's,
     * which differ), then Spring Security's login.
     */
    static final String DEFAULT_PRINCIPAL_ATTRIBUTES = PRINCIPAL_NAME_INDEX_NAME + ","
            + ReactiveFindByIndexNameSessionRepository.PRINCIPAL_NAME_INDEX_NAME + "," + SPRING_SECURITY_CONTEXT;

    private final SessionStore store;
    private final boolean continuesWithoutSession;
    private final Clock clock;
    private volatile Duration defaultMaxInactiveInterval = MapSession.DEFAULT_MAX_INACTIVE_INTERVAL;
    private volatile FlushMode flushMode = FlushMode.ON_SAVE;
    private volatile SessionIdGenerator idGenerator = UuidSessionIdGenerator.getInstance();
    private volatile ApplicationEventPublisher eventPublisher;
    private final boolean expiryEvents;
    private final long sweepPeriodSeconds;
    private final Duration operationTimeout;
    private ScheduledExecutorService sweeper;

    /**
     * Opens the store of {@code settings}' key scope. {@code principalAttribute} unset, or Spring Security's
     * context alone (the starter's default), becomes the principal name attribute and then that context.
     *
     * @param applicationClassLoader the loader of the application's classes, which attribute values may be
     * @throws StoreConfigurationException for settings that are missing or wrong, saying how to fix them, and for
     *     {@code lockingMode=pessimistic}, which Spring Session's lookups without a save would turn into waits
     * @throws StoreUnavailableException if HBase cannot be reached within the start-up timeout
     */
    public HBaseIndexedSessionRepository(StoreSettings settings, ClassLoader applicationClassLoader,
            SessionSystem system) {
        this(settings, applicationClassLoader, system, Clock.systemUTC());
    }

    /** As the public constructor, with the clock that decides expiry (tests move it instead of sleeping). */
    HBaseIndexedSessionRepository(StoreSettings settings, ClassLoader applicationClassLoader, SessionSystem system,
            Clock clock) {
        StoreSettings indexed = withPrincipalAttributes(settings);
        if (indexed.get(Setting.LOCKING_MODE).leasesEveryLoad()) {
            throw new StoreConfigurationException("lockingMode=pessimistic does not work with Spring Session: a lease is "
                    + "taken by every lookup and given back by a save, and Spring Session and Spring Security look "
                    + "sessions up without saving them (the session registry on every request, findByPrincipalName), "
                    + "so requests would wait for leases nobody gives back. Use lockingMode=optimistic (the default): "
                    + "concurrent requests' attribute changes are merged");
        }
        this.store = SessionStores.open(indexed, new Webapp(applicationClassLoader, system.container()), clock);
        this.continuesWithoutSession = indexed.get(Setting.FAIL_MODE).continuesWithoutSession();
        this.clock = clock;
        this.expiryEvents = indexed.get(Setting.EXPIRY_EVENTS);
        this.sweepPeriodSeconds = indexed.expirySweepPeriodSeconds();
        this.operationTimeout = Duration.ofMillis(indexed.get(Setting.OPERATION_TIMEOUT_MILLIS));
    }

    private static StoreSettings withPrincipalAttributes(StoreSettings settings) {
        Optional<String> configured = settings.find(Setting.PRINCIPAL_ATTRIBUTE);
        if (configured.isPresent() && !configured.get().equals(SPRING_SECURITY_CONTEXT)) {
            return settings;
        }
        return settings.toBuilder().set(Setting.PRINCIPAL_ATTRIBUTE, DEFAULT_PRINCIPAL_ATTRIBUTES).build();
    }

    /** The maximum inactive interval of new sessions; zero or negative: they never idle out. Default 30 minutes. */
    public void setDefaultMaxInactiveInterval(Duration interval) {
        this.defaultMaxInactiveInterval = Objects.requireNonNull(interval, "interval");
    }

    /** {@code ON_SAVE} (the default): a session is written when the filter saves it; {@code IMMEDIATE}: at every change. */
    public void setFlushMode(FlushMode flushMode) {
        this.flushMode = Objects.requireNonNull(flushMode, "flushMode");
    }

    /**
     * {@code ON_SET_ATTRIBUTE} and {@code ON_GET_ATTRIBUTE} are accepted and mean the same here (see the class
     * comment).
     *
     * @throws IllegalArgumentException for {@code ALWAYS}, which would revert other requests' concurrent changes
     */
    public void setSaveMode(SaveMode saveMode) {
        if (Objects.requireNonNull(saveMode, "saveMode") == SaveMode.ALWAYS) {
            throw new IllegalArgumentException("SaveMode.ALWAYS is not supported: writing every attribute would put back "
                    + "what concurrent requests changed meanwhile. The store writes what this request set, and what it "
                    + "read and changed in place (ON_GET_ATTRIBUTE); use that, or the default ON_SET_ATTRIBUTE");
        }
    }

    public void setSessionIdGenerator(SessionIdGenerator generator) {
        this.idGenerator = Objects.requireNonNull(generator, "generator");
    }

    /**
     * Where {@link SessionCreatedEvent}s, {@link SessionDeletedEvent}s and (with {@code expiryEvents})
     * {@link SessionExpiredEvent}s go; none are published without one. With {@code expiryEvents}, setting one starts
     * this node's part of the expiry sweep ({@link #sweepExpired()}).
     */
    public synchronized void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
        this.eventPublisher = publisher;
        if (publisher != null && expiryEvents && sweeper == null) {
            sweeper = Executors.newSingleThreadScheduledExecutor(task -> {
                Thread thread = new Thread(task, "hbase-sessions-spring-expiry-sweep");
                thread.setDaemon(true);
                return thread;
            });
            sweeper.scheduleWithFixedDelay(this::sweepExpired, sweepPeriodSeconds, sweepPeriodSeconds, TimeUnit.SECONDS);
        }
    }

    /** A new session, stored at its first save (at once with {@code FlushMode.IMMEDIATE}). */
    @Override
    public HBaseSession createSession() {
        SessionRecord record = SessionRecord.created(newId(), clock.instant(), defaultMaxInactiveInterval);
        HBaseSession session = new HBaseSession(store.newSession(record, false), this, clock);
        changed(session);
        return session;
    }

    /**
     * Writes what changed since the session was read or last saved, merged onto what other requests wrote
     * meanwhile, and moves it to its new id if {@link HBaseSession#changeSessionId()} gave it one. A session deleted
     * meanwhile (logged out, revoked, expired) is not stored again.
     *
     * @throws io.hbasesessions.store.SessionStoreException if the session cannot be stored as it is (too large, an
     *     attribute that cannot be serialized); the stored session stays as it was
     * @throws StoreUnavailableException if HBase does not answer within {@code operationTimeoutMillis}
     */
    @Override
    public void save(HBaseSession session) {
        StoredSession stored = session.stored();
        boolean creating = !stored.isStored();
        SaveResult result;
        if (session.pendingId() != null && stored.isStored()) {
            result = store.changeId(stored, session.current(), session.pendingId());
        } else {
            SessionRecord current = session.pendingId() == null ? session.current()
                    : session.current().withId(session.pendingId());
            result = store.save(stored, current);
        }
        if (result == SaveResult.GONE) {
            LOG.log(Level.DEBUG, "A session deleted meanwhile was not stored again");
        }
        session.saved();
        if (creating && stored.isStored()) {
            publish(new SessionCreatedEvent(this, session));
        }
    }

    /**
     * The session, or null when it is missing, past its idle timeout or maximum lifetime, another session system's,
     * or the id cannot name one (forged, overlong). While HBase is unavailable this throws within
     * {@code operationTimeoutMillis}, or, with {@code failMode=new_session}, finds nothing.
     */
    @Override
    public HBaseSession findById(String id) {
        return load(id).map(stored -> new HBaseSession(stored, this, clock)).orElse(null);
    }

    /** Deletes the session and its user index entry, then publishes a {@link SessionDeletedEvent} if it existed. */
    @Override
    public void deleteById(String id) {
        Optional<StoredSession> stored = load(id);
        if (stored.isPresent() && store.delete(stored.get())) {
            publish(new SessionDeletedEvent(this, new HBaseSession(stored.get(), this, clock)));
        }
    }

    /**
     * With {@code expiryEvents}: ends the sessions of the store's due expiry buckets that no other node sweeps and
     * publishes a {@link SessionExpiredEvent} for each, with its attributes: once across the fleet for every session
     * that idled out (or outlived {@code maxLifetimeSeconds}), never for one kept alive on another node. Runs by
     * itself every {@code expiryEventDelaySeconds / 2} once an event publisher is set (a node without one does not
     * sweep, or its events would be lost); returns how many ended. Without {@code expiryEvents}, and while HBase is
     * unavailable (logged; a later sweep takes the due buckets), 0.
     */
    public int sweepExpired() {
        List<StoredSession> ended;
        try {
            ended = store.sweepExpired();
        } catch (SessionStoreException e) {
            LOG.log(Level.WARNING, "The expiry sweep failed; its buckets are swept later: {0}", e.getMessage());
            return 0;
        }
        for (StoredSession stored : ended) {
            try {
                publish(new SessionExpiredEvent(this, new HBaseSession(stored, this, clock)));
            } catch (RuntimeException e) {
                // The session is ended already: one failing listener must not cost the others their events.
                LOG.log(Level.WARNING, "A SessionExpiredEvent listener failed", e);
            }
        }
        return ended.size();
    }

    private void publish(AbstractSessionEvent event) {
        ApplicationEventPublisher publisher = eventPublisher;
        if (publisher != null) {
            publisher.publishEvent(event);
        }
    }

    /**
     * The live sessions of a principal in this key scope by id, for {@link #PRINCIPAL_NAME_INDEX_NAME}; an empty map for
     * any other index.
     */
    @Override
    public Map<String, HBaseSession> findByIndexNameAndIndexValue(String indexName, String indexValue) {
        Map<String, HBaseSession> sessions = new LinkedHashMap<>();
        if (!PRINCIPAL_NAME_INDEX_NAME.equals(indexName) || indexValue == null) {
            return sessions;
        }
        for (String id : store.findIdsByUser(indexValue)) {
            store.load(id).ifPresent(stored -> sessions.put(id, new HBaseSession(stored, this, clock)));
        }
        return sessions;
    }

    /**
     * "Log out everywhere": deletes every session of {@code user} in every key scope and returns how many, then
     * publishes a {@link SessionDeletedEvent}, with its attributes, for each session of this key scope found just
     * before (the revocation ends every one of them or throws; a login racing it may be ended without an event).
     */
    public int revokeAll(String user) {
        Map<String, HBaseSession> before = findByPrincipalName(user);
        int revoked = store.revokeAll(user);
        before.values().forEach(session -> publish(new SessionDeletedEvent(this, session)));
        return revoked;
    }

    /** The store under this repository: its counters, latencies and health. */
    public SessionStore store() {
        return store;
    }

    /** Stops this node's expiry sweep and closes the store. */
    @Override
    public void close() {
        synchronized (this) {
            if (sweeper != null) {
                sweeper.shutdownNow();
                sweeper = null;
            }
        }
        store.close();
    }

    /** {@code operationTimeoutMillis}: the longest a call to HBase may take. */
    Duration operationTimeout() {
        return operationTimeout;
    }

    String newId() {
        return idGenerator.generate();
    }

    /** A session changed: with {@code FlushMode.IMMEDIATE}, it is saved now. */
    void changed(HBaseSession session) {
        if (flushMode == FlushMode.IMMEDIATE) {
            save(session);
        }
    }

    private Optional<StoredSession> load(String id) {
        try {
            return store.load(id);
        } catch (StoreUnavailableException e) {
            goOnWithoutSessionOrThrow(e);
            return Optional.empty();
        }
    }

    /** A lookup that failed with {@code e}: with {@code failMode=new_session} it found nothing (logged), else it throws. */
    void goOnWithoutSessionOrThrow(StoreUnavailableException e) {
        if (!continuesWithoutSession) {
            throw e;
        }
        LOG.log(Level.WARNING, "HBase is unavailable; the request goes on without its session "
                + "(failMode=new_session): {0}", e.getMessage());
    }
}
