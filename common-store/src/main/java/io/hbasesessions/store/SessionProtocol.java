package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.lang.reflect.Array;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * The {@link SessionStore} protocol: how sessions are read, written under conditions, merged, moved,
 * deleted and revoked, over the {@link SessionRows} and {@link UserIndex} interfaces. It knows no HBase
 * type; {@link HBaseSessions} gives it the HBase tables. Thread-safe; one per web application.
 */
final class SessionProtocol implements SessionStore {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    private static final Backoff LEASE_BACKOFF = new Backoff(2, 50);
    /** A session's first version is below this: far from overflowing, and as unguessable as 62 random bits. */
    private static final long FIRST_VERSIONS = 1L << 62;
    /** Reads and conditional ends of one row before ending it gives up: each failed end means another write got in. */
    private static final int MAX_END_ATTEMPTS = 10;

    private final String keyScope;
    private final StoreSettings settings;
    private final Webapp webapp;
    private final ClassRules classRules;
    /** Classes of values the attribute class filter kept from being stored, each warned about once. */
    private final Set<String> classesKeptOnTheNode = ConcurrentHashMap.newKeySet();
    private final SessionCodec writeCodec;
    private final Map<SerializerKind, SessionCodec> codecs = new EnumMap<>(SerializerKind.class);
    private final SaveOperation.Collaborators with;
    private final SavePlan.Durabilities durabilities;
    private final Duration leaseTimeout;
    private final Optional<ExpirySweeper> sweeper;
    private final Supplier<StoreHealth> health;
    private final Runnable onClose;
    private final LiveLatencies latencies = new LiveLatencies();

    /**
     * @param expiryIndex the expiry index when {@code expiryEvents} is on, else empty
     * @param health the health check of this store's tables
     */
    SessionProtocol(StoreSettings settings, Webapp webapp, Clock clock, LiveCounters counters, StateSeal seal,
            SessionRows rows, UserIndex index, Optional<ExpiryIndex> expiryIndex, Supplier<StoreHealth> health,
            Runnable onClose) {
        this.keyScope = settings.get(Setting.KEY_SCOPE);
        this.settings = settings;
        this.webapp = webapp;
        this.classRules = ClassRules.of(settings, webapp.classLoader());
        ReadLimits limits = new ReadLimits(settings.get(Setting.MAX_SESSION_BYTES));
        for (SerializerKind kind : SerializerKind.values()) {
            codecs.put(kind, kind.codec(classRules, limits));
        }
        this.writeCodec = codecs.get(settings.get(Setting.SERIALIZER));
        this.leaseTimeout = Duration.ofSeconds(settings.get(Setting.LEASE_TIMEOUT_SECONDS));
        Duration keptForSweep = expiryIndex.isEmpty() ? Duration.ZERO
                : Duration.ofSeconds(settings.get(Setting.EXPIRY_EVENT_DELAY_SECONDS)).plus(leaseTimeout);
        ExpiryPolicy expiry = new ExpiryPolicy(settings.get(Setting.TOUCH_INTERVAL_SECONDS),
                settings.get(Setting.MAX_LIFETIME_SECONDS), keptForSweep);
        ExpiryTracking tracking = new ExpiryTracking(expiryIndex, expiry, seal, ExpiryTracking.bucketWidth(settings),
                counters);
        this.with = new SaveOperation.Collaborators(rows, index,
                new RowWrites(expiry, seal, settings.get(Setting.MAX_SESSION_BYTES), counters,
                        webapp.container().sessionSystem()), counters, expiry, clock,
                settings.get(Setting.LOCKING_MODE), tracking, new RowTurns());
        this.durabilities = SavePlan.Durabilities.of(settings);
        this.sweeper = expiryIndex.map(expiryRows -> new ExpirySweeper(new ExpirySweeper.Collaborators(expiryRows,
                tracking, rows, index, expiry, clock, counters, this::newDeadline), keyScope, this::isSessionHere, leaseTimeout,
                (sessionId, key, row) -> loaded(sessionId, key, row, null)));
        this.health = health;
        this.onClose = onClose;
    }

    @Override
    public String keyScope() {
        return keyScope;
    }

    @Override
    public StoredSession newSession(SessionRecord record, boolean transientSession) {
        StoredState state = StoredState.newSession(writeCodec.kind(), record);
        return new StoredSession(record, state, 0, attributesOf(state, null), null, transientSession, false);
    }

    @Override
    public Optional<StoredSession> load(String sessionId) {
        long started = System.nanoTime();
        Optional<StoredSession> loaded = read(sessionId);
        latencies.record(StoreOperation.LOAD, started);
        return loaded;
    }

    private Optional<StoredSession> read(String sessionId) {
        with.counters().increment(StoreCounter.LOADS);
        Optional<SessionKey> key = SessionKey.forLookup(keyScope, sessionId);
        if (key.isEmpty()) {
            with.counters().increment(StoreCounter.LOAD_MISSES);
            return Optional.empty();
        }
        Deadline deadline = newDeadline();
        if (with.lockingMode() != LockingMode.PESSIMISTIC) {
            return loadLive(key.get(), deadline).map(row -> loaded(sessionId, key.get(), row, null));
        }
        // The lease was just taken on the primary: the read under it is the primary's too.
        String lease = takeLease(key.get(), deadline);
        Optional<StoredSession> loaded = readLive(key.get(), deadline).map(row -> loaded(sessionId, key.get(), row, lease));
        if (loaded.isEmpty()) {
            with.rows().dropLease(key.get(), lease, deadline);
        }
        return loaded;
    }

    private StoredSession loaded(String sessionId, SessionKey key, SessionRow row, String lease) {
        return new StoredSession(row.state().record(sessionId), row.state(), row.version(),
                attributesOf(row.state(), key), lease, false, row.stale());
    }

    @Override
    public Set<String> liveAmong(Collection<String> sessionIds) {
        Map<SessionKey, String> idsByKey = new LinkedHashMap<>();
        sessionIds.forEach(id -> SessionKey.forLookup(keyScope, id).ifPresent(key -> idsByKey.put(key, id)));
        if (idsByKey.isEmpty()) {
            return Set.of();
        }
        List<SessionKey> keys = List.copyOf(idsByKey.keySet());
        List<Optional<SessionRow>> rows = with.rows().readAll(keys, newDeadline());
        Set<String> live = new HashSet<>();
        Instant now = now();
        for (int i = 0; i < keys.size(); i++) {
            if (rows.get(i).filter(row -> isSessionHere(row.state()) && !with.expiry().isOverAt(row.state(), now))
                    .isPresent()) {
                live.add(idsByKey.get(keys.get(i)));
            }
        }
        return live;
    }

    @Override
    public SaveResult save(StoredSession session, SessionRecord current) {
        long started = System.nanoTime();
        boolean newSession = !session.isStored();
        SaveResult result = write(session, current);
        latencies.recordSave(newSession, result, started);
        return result;
    }

    private SaveResult write(StoredSession session, SessionRecord current) {
        if (session.isTransient()) {
            return SaveResult.UNCHANGED;
        }
        if (session.isStored() && !session.record().id().equals(current.id())) {
            throw new IllegalArgumentException("save cannot move a stored session to another id; use changeId");
        }
        // A session not stored yet is created under whatever id the container gives it now: an id
        // changed in the request that created the session (a login) has nothing stored to move.
        SessionKey key = SessionKey.forNewSession(keyScope, current.id());
        SavePlan plan = planFor(session, current, key);
        if (!session.isStored()) {
            return createOrGoOnWithout(session, plan, key);
        }
        return new SaveOperation(with, session, plan, key, newDeadline()).run();
    }

    private SavePlan planFor(StoredSession session, SessionRecord current, SessionKey key) {
        AttributeChanges changes = session.attributes().changes(key.shortHex());
        return SavePlan.decide(session.state(), current, changes, indexedUser(session, current, changes, key),
                with.expiry(), durabilities);
    }

    /** The container's login, or the user an application keeps in {@code principalAttribute} (read only if it changed). */
    private Optional<String> indexedUser(StoredSession session, SessionRecord current, AttributeChanges changes,
            SessionKey key) {
        Optional<String> user;
        Optional<String> attribute = settings.find(Setting.PRINCIPAL_ATTRIBUTE);
        if (attribute.isEmpty()) {
            user = current.login().map(SessionPrincipal::name);
        } else if (changes.written().containsKey(attribute.get()) || changes.removed().contains(attribute.get())
                || !session.isStored()) {
            user = IndexedUsers.fromAttribute(session.attributes().get(attribute.get()));
        } else {
            user = session.indexedUser();
        }
        return user.map(name -> IndexedUsers.checked(name, key.shortHex()));
    }

    /**
     * With {@code failMode=new_session}, a new session HBase cannot take becomes transient: the request
     * goes on, as for a visitor whose session could not be read.
     */
    private SaveResult createOrGoOnWithout(StoredSession session, SavePlan plan, SessionKey key) {
        try {
            return create(session, plan, key);
        } catch (StoreUnavailableException e) {
            if (!settings.get(Setting.FAIL_MODE).continuesWithoutSession()) {
                throw e;
            }
            LOG.log(Level.WARNING, "HBase is unavailable; a new session is not stored and lives for this request "
                    + "only (failMode=new_session): {0}", e.getMessage());
            session.makeTransient();
            return SaveResult.UNCHANGED;
        }
    }

    /**
     * Writes a new session row durably, its index entry first. A row still there from an ended
     * session with the same id (HBase drops cells only after their TTL) is replaced; a live one is not.
     */
    private SaveResult create(StoredSession session, SavePlan plan, SessionKey key) {
        Deadline deadline = newDeadline();
        plan.newUser().ifPresent(user -> with.index().add(new UserIndex.Entry(user, plan.current().creationTime(), key),
                deadline));
        RowWrite write = insert(key, plan, deadline).orElseGet(() -> overEndedSession(key, plan, deadline));
        with.writes().count(StoreCounter.CREATES, write);
        session.written(write.state().record(plan.current().id()), write, plan.changes());
        return SaveResult.WRITTEN;
    }

    /**
     * Writes a new session into its row, unless the row holds a session (live or not). Its first version is random:
     * a writer still holding a copy of a session that ended under the same id cannot write over this one.
     */
    private Optional<RowWrite> insert(SessionKey key, SavePlan plan, Deadline deadline) {
        long version = ThreadLocalRandom.current().nextLong(1, FIRST_VERSIONS);
        RowWrite fresh = with.writes().of(plan.stateFromBase(), version, durabilities.lifecycle(), key);
        with.tracking().beforeWrite(key, plan.current().id(), null, fresh.state(), durabilities.lifecycle(), deadline);
        if (with.rows().insert(key, fresh, deadline)) {
            return Optional.of(fresh);
        }
        // Over the end of a session with this id, which may hide cells of it: without a cell TTL, this one outlives them.
        RowWrite overEnd = with.writes().of(plan.stateFromBase().cellTtlMillis(Long.MAX_VALUE), version,
                durabilities.lifecycle(), key);
        return with.rows().insertOverEnd(key, overEnd, deadline) ? Optional.of(overEnd) : Optional.empty();
    }

    /** A row still holding a session whose end has passed (HBase drops cells only after their TTL) is written over. */
    private RowWrite overEndedSession(SessionKey key, SavePlan plan, Deadline deadline) {
        Optional<SessionRow> existing = with.rows().read(key, deadline);
        if (existing.isPresent() && with.expiry().isOverAt(existing.get().state(), now())) {
            StoredState.Builder next = plan.stateFromBase().cellTtlMillis(existing.get().state().cellTtlMillis());
            RowWrite over = with.writes().of(next, existing.get().version() + 1, durabilities.lifecycle(), key);
            if (with.rows().replace(key, existing.get().version(), over, deadline)) {
                return over;
            }
        }
        throw new SessionAlreadyExistsException(key.shortHex());
    }

    @Override
    public SaveResult saveWhole(SessionRecord current, Map<String, ?> attributes, boolean storedBefore) {
        long started = System.nanoTime();
        SaveResult result = writeWhole(current, attributes, storedBefore);
        latencies.recordSave(!storedBefore, result, started);
        return result;
    }

    private SaveResult writeWhole(SessionRecord current, Map<String, ?> attributes, boolean storedBefore) {
        SessionKey key = SessionKey.forNewSession(keyScope, current.id());
        Optional<SessionRow> row = readLive(key, newDeadline());
        if (row.isEmpty() && storedBefore) {
            return SaveResult.GONE;
        }
        StoredSession session = row.map(found -> loaded(current.id(), key, found, null))
                .orElseGet(() -> newSession(current, false));
        session.attributes().replaceWith(attributes);
        return write(session, current);
    }

    @Override
    public void release(StoredSession session) {
        String lease = session.takeLeaseToken();
        if (lease != null) {
            with.rows().dropLease(SessionKey.forNewSession(keyScope, session.record().id()), lease, newDeadline());
        }
    }

    @Override
    public boolean delete(String sessionId) {
        long started = System.nanoTime();
        boolean deleted = remove(sessionId);
        latencies.record(StoreOperation.DELETE, started);
        return deleted;
    }

    private boolean remove(String sessionId) {
        Optional<SessionKey> key = SessionKey.forLookup(keyScope, sessionId);
        if (key.isEmpty()) {
            return false;
        }
        Deadline deadline = newDeadline();
        return endWhatIsThere(key.get(), deadline).map(ended -> afterEnd(key.get(), ended.state(), deadline))
                .orElse(false);
    }

    @Override
    public boolean delete(StoredSession session) {
        long started = System.nanoTime();
        // The end marker gives the lease back.
        session.takeLeaseToken();
        boolean deleted;
        if (!session.isStored() || session.isTransient()) {
            deleted = false;
        } else {
            SessionKey key = SessionKey.forNewSession(keyScope, session.record().id());
            Deadline deadline = newDeadline();
            deleted = with.rows().end(key, new SessionRow(session.state(), session.version(), false), deadline)
                    ? afterEnd(key, session.state(), deadline)
                    : remove(session.record().id());
        }
        latencies.record(StoreOperation.DELETE, started);
        return deleted;
    }

    /** After a session's end: its user's index entry goes; true if it was live. */
    private boolean afterEnd(SessionKey key, StoredState ended, Deadline deadline) {
        ended.indexedUser().ifPresent(user -> with.index().remove(new UserIndex.Entry(user, ended.creationTime(), key),
                deadline));
        with.counters().increment(StoreCounter.DELETES);
        return !with.expiry().isOverAt(ended, now());
    }

    /**
     * Ends the session the row holds, whatever version it is at by then (another request may write it meanwhile);
     * returns the session ended, or empty when there was none (an unreadable row is ended too; another session
     * system's row is none here and stays).
     */
    private Optional<SessionRow> endWhatIsThere(SessionKey key, Deadline deadline) {
        for (int attempt = 1; attempt <= MAX_END_ATTEMPTS; attempt++) {
            Optional<SessionRow> row;
            try {
                row = with.rows().read(key, deadline);
            } catch (CorruptSessionDataException e) {
                with.rows().endUnreadable(key, deadline);
                return Optional.empty();
            }
            if (row.isEmpty() || !isSessionHere(row.get().state())) {
                return Optional.empty();
            }
            if (with.rows().end(key, row.get(), deadline)) {
                return row;
            }
        }
        throw new StoreUnavailableException("Other writers kept changing this session while it was being ended",
                key.shortHex(), null);
    }

    @Override
    public SaveResult changeId(StoredSession session, SessionRecord current, String newSessionId) {
        long started = System.nanoTime();
        SaveResult result = move(session, current, newSessionId);
        latencies.record(StoreOperation.CHANGE_ID, started);
        return result;
    }

    private SaveResult move(StoredSession session, SessionRecord current, String newSessionId) {
        SessionKey oldKey = SessionKey.forNewSession(keyScope, session.record().id());
        SessionKey newKey = SessionKey.forNewSession(keyScope, newSessionId);
        SessionRecord moved = current.withId(newSessionId);
        SavePlan plan = planFor(session, moved, newKey);
        Deadline deadline = newDeadline();
        UserIndex.Entry newEntry = plan.newUser().or(session::indexedUser)
                .map(user -> new UserIndex.Entry(user, moved.creationTime(), newKey)).orElse(null);
        if (newEntry != null) {
            with.index().add(newEntry, deadline);
        }
        RowWrite write = insert(newKey, plan, deadline)
                .orElseThrow(() -> new SessionAlreadyExistsException(newKey.shortHex()));
        SessionRow old = new SessionRow(session.state(), session.version(), false);
        while (!with.rows().end(oldKey, old, deadline)) {
            // Another writer changed the old row after this request read it: carry its state over, or
            // take the new row back if the session was deleted meanwhile.
            Optional<SessionRow> newer = readLive(oldKey, deadline);
            if (newer.isEmpty()) {
                endWhatIsThere(newKey, deadline);
                if (newEntry != null) {
                    with.index().remove(newEntry, deadline);
                }
                return SaveResult.GONE;
            }
            RowWrite carried = with.writes().of(plan.onto(newer.get().state()), write.version() + 1,
                    durabilities.lifecycle(), newKey);
            with.tracking().beforeWrite(newKey, newSessionId, write.state(), carried.state(), durabilities.lifecycle(),
                    deadline);
            if (!with.rows().replace(newKey, write.version(), carried, deadline)) {
                throw new StoreUnavailableException("The new row of a session whose id changed was written by "
                        + "someone else", newKey.shortHex(), null);
            }
            write = carried;
            old = newer.get();
        }
        session.indexedUser().ifPresent(user -> with.index().remove(
                new UserIndex.Entry(user, session.record().creationTime(), oldKey), deadline));
        with.writes().count(StoreCounter.ID_CHANGES, write);
        session.written(write.state().record(newSessionId), write, plan.changes());
        return SaveResult.WRITTEN;
    }

    @Override
    public List<IndexedSession> findByUser(String user) {
        Deadline deadline = newDeadline();
        Instant now = now();
        return sessionsOf(user, deadline).stream()
                .filter(owned -> !with.expiry().isOverAt(owned.row().state(), now))
                .map(owned -> new IndexedSession(user, owned.entry().session().hex(), owned.row().state().creationTime()))
                .toList();
    }

    @Override
    public int revokeAll(String user) {
        long started = System.nanoTime();
        int revoked = revoke(user);
        latencies.record(StoreOperation.REVOKE, started);
        return revoked;
    }

    private int revoke(String user) {
        Deadline deadline = newDeadline();
        List<OwnedSession> owned = sessionsOf(user, deadline);
        if (owned.isEmpty()) {
            return 0;
        }
        Instant now = now();
        int revoked = (int) owned.stream().filter(session -> !with.expiry().isOverAt(session.row().state(), now)).count();
        // Sessions first, then exactly their entries: a crash in between leaves entries that readers skip.
        // Entries of sessions not found stay: a login may be between its entry and its session write.
        endAll(owned, deadline);
        with.index().removeAll(owned.stream().map(OwnedSession::entry).toList(), deadline);
        with.counters().add(StoreCounter.REVOCATIONS, revoked);
        return revoked;
    }

    /** Ends every owned session; one written meanwhile at the version it is at by then, if it is still the user's. */
    private void endAll(List<OwnedSession> owned, Deadline deadline) {
        Set<SessionKey> changed = new HashSet<>(with.rows().endAll(owned.stream()
                .map(session -> new SessionRows.Ending(session.entry().session(), session.row())).toList(),
                deadline));
        owned.stream().filter(session -> changed.contains(session.entry().session()))
                .forEach(session -> endIfStillOwned(session.entry(), deadline));
    }

    private void endIfStillOwned(UserIndex.Entry entry, Deadline deadline) {
        for (int attempt = 1; attempt <= MAX_END_ATTEMPTS; attempt++) {
            Optional<SessionRow> row = owned(List.of(entry), deadline).stream().map(OwnedSession::row).findFirst();
            if (row.isEmpty() || with.rows().end(entry.session(), row.get(), deadline)) {
                return;
            }
        }
        throw new StoreUnavailableException("Other writers kept changing a session while it was being revoked",
                entry.session().shortHex(), null);
    }

    /** A session the index names whose row still exists and still belongs to the user. */
    private record OwnedSession(UserIndex.Entry entry, SessionRow row) {
    }

    private List<OwnedSession> sessionsOf(String user, Deadline deadline) {
        return owned(user == null || user.isEmpty() ? List.of() : with.index().entries(user, deadline), deadline);
    }

    /** The entries whose session row still exists and still belongs to the entry's user, with the row. */
    private List<OwnedSession> owned(List<UserIndex.Entry> entries, Deadline deadline) {
        if (entries.isEmpty()) {
            return List.of();
        }
        List<Optional<SessionRow>> rows = with.rows().readAll(entries.stream().map(UserIndex.Entry::session).toList(),
                deadline);
        List<OwnedSession> owned = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            UserIndex.Entry entry = entries.get(i);
            rows.get(i).filter(row -> row.state().indexedUser().filter(entry.user()::equals).isPresent())
                    .ifPresent(row -> owned.add(new OwnedSession(entry, row)));
        }
        return owned;
    }

    /**
     * The session in row {@code key} as it is stored, ended or not, read from the primary. Attribute values are
     * decoded only with {@code valueClasses}, under this store's class rules and bounds as values of the
     * application whose classes that loader defines, each failure only that attribute's; without it each
     * attribute shows the class its bytes name, and nothing of it is decoded. For {@link StoreAdministration#inspect}.
     */
    SessionInspection inspect(SessionKey key, Optional<ClassLoader> valueClasses) {
        Optional<SessionRow> row;
        try {
            row = with.rows().read(key, newDeadline());
        } catch (CorruptSessionDataException e) {
            return SessionInspection.unreadable(key.hex(), printable(e.getMessage()));
        }
        if (row.isEmpty()) {
            return SessionInspection.missing(key.hex());
        }
        StoredState state = row.get().state();
        SessionInspection.Metadata metadata = new SessionInspection.Metadata(row.get().version(), state.codec(),
                state.creationTime(), state.lastAccessTime(), state.maxInactiveInterval(),
                with.expiry().isOverAt(state, now()), with.expiry().endOf(state),
                state.login().map(SessionPrincipal::name), state.indexedUser(), state.toBytes().length);
        Optional<SessionCodec> decoding = valueClasses.map(loader -> state.codec().codec(
                ClassRules.of(settings, loader), new ReadLimits(settings.get(Setting.MAX_SESSION_BYTES))));
        SessionCodec naming = codecs.get(state.codec());
        List<SessionInspection.Attribute> attributes = new ArrayList<>();
        new TreeMap<>(state.attributeBytes()).forEach((name, bytes) -> attributes.add(decoding
                .map(codec -> inspectAttribute(codec, name, bytes))
                .orElseGet(() -> new SessionInspection.Attribute(name, bytes.length, naming.className(bytes),
                        Optional.empty(), Optional.empty()))));
        return new SessionInspection(key.hex(), true, Optional.empty(), Optional.of(metadata), attributes);
    }

    private static SessionInspection.Attribute inspectAttribute(SessionCodec codec, String name, byte[] bytes) {
        Object value;
        try {
            value = codec.decode(bytes);
        } catch (CodecException e) {
            return new SessionInspection.Attribute(name, bytes.length, codec.className(bytes),
                    Optional.of(printable(e.getMessage())), Optional.empty());
        }
        String valueClass = value == null ? "null" : value.getClass().getTypeName();
        return new SessionInspection.Attribute(name, bytes.length, Optional.of(valueClass), Optional.empty(),
                Optional.of(shown(value)));
    }

    /** A value's text for an operator's terminal: its own {@code toString()} may fail or print anything. */
    private static String shown(Object value) {
        if (value != null && value.getClass().isArray()) {
            return value.getClass().getComponentType().getTypeName() + "[" + Array.getLength(value) + "]";
        }
        String text;
        try {
            text = String.valueOf(value);
        } catch (RuntimeException | StackOverflowError e) {
            text = "(toString() failed: " + e + ")";
        }
        text = printable(text);
        int max = SessionInspection.Attribute.MAX_VALUE_CHARS;
        return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " characters)";
    }

    /** Text read from stored bytes, for a terminal or a log: no control characters of theirs get through. */
    private static String printable(String text) {
        return text == null ? "" : text.replaceAll("\\p{Cntrl}", "?");
    }

    /**
     * Removes the user index entries, written at least {@code minEntryAgeSeconds} ago, whose session is gone:
     * no row, an unreadable one, an ended session, or one now indexed under another user. None of them can
     * be revoked or found by user any more. A younger entry may belong to a login that has written its entry
     * but not yet its session (within one operation), so the age must be at least the operation timeout.
     * The age is measured on the cells' timestamps, which the region servers' clocks give.
     */
    IndexSweep sweepIndex(long minEntryAgeSeconds, int pageRows) {
        long operationSeconds = Duration.ofMillis(settings.get(Setting.OPERATION_TIMEOUT_MILLIS)).toSeconds() + 1;
        if (minEntryAgeSeconds < operationSeconds) {
            throw new IllegalArgumentException("The minimum entry age must be at least " + operationSeconds
                    + " s (operationTimeoutMillis, rounded up): a younger entry may be a login still being written");
        }
        Instant writtenBefore = Instant.now().minusSeconds(minEntryAgeSeconds);
        long scanned = 0;
        long removed = 0;
        long unparseable = 0;
        Optional<byte[]> after = Optional.empty();
        do {
            Deadline deadline = newDeadline();
            UserIndex.Page page = with.index().page(after, pageRows, writtenBefore, deadline);
            List<UserIndex.Entry> gone = goneAmong(page.entries(), deadline);
            if (!gone.isEmpty()) {
                with.index().removeAll(gone, deadline);
            }
            scanned += page.entries().size();
            removed += gone.size();
            unparseable += page.unparseableRows();
            after = page.resumeAfter();
        } while (after.isPresent());
        return new IndexSweep(scanned, removed, scanned - removed, unparseable, minEntryAgeSeconds);
    }

    private List<UserIndex.Entry> goneAmong(List<UserIndex.Entry> entries, Deadline deadline) {
        Instant now = now();
        Set<UserIndex.Entry> live = new HashSet<>();
        owned(entries, deadline).stream().filter(session -> !with.expiry().isOverAt(session.row().state(), now))
                .forEach(session -> live.add(session.entry()));
        return entries.stream().filter(entry -> !live.contains(entry)).toList();
    }

    @Override
    public List<StoredSession> sweepExpired() {
        if (sweeper.isEmpty()) {
            return List.of();
        }
        long started = System.nanoTime();
        List<StoredSession> ended = sweeper.get().sweep();
        latencies.record(StoreOperation.EXPIRY_SWEEP, started);
        return ended;
    }

    @Override
    public StoreHealth checkHealth() {
        return health.get();
    }

    @Override
    public StoreCounters counters() {
        return with.counters().snapshot();
    }

    @Override
    public StoreLatencies latencies() {
        return latencies.snapshot();
    }

    @Override
    public void close() {
        OpenStores.closed(this);
        onClose.run();
    }

    @Override
    public String toString() {
        return "SessionStore[keyScope=" + keyScope + ", table=" + settings.get(Setting.TABLE) + "]";
    }

    /**
     * For a load that decides nothing: as {@link #readLive}, but possibly answered by a secondary replica
     * ({@code timelineReads}). A stale row may show a live session, never its end: a touch on the primary
     * the secondary has not seen yet may have moved it.
     */
    private Optional<SessionRow> loadLive(SessionKey key, Deadline deadline) {
        Optional<SessionRow> row = live(key, () -> with.rows().readForLoad(key, deadline));
        if (row.isPresent() && row.get().stale()) {
            with.counters().increment(StoreCounter.STALE_READS);
        }
        return row;
    }

    /** The live session in the primary's row, or empty when it is missing, ended, unreadable (logged) or forged. */
    private Optional<SessionRow> readLive(SessionKey key, Deadline deadline) {
        return live(key, () -> with.rows().read(key, deadline));
    }

    private Optional<SessionRow> live(SessionKey key, Supplier<Optional<SessionRow>> read) {
        Optional<SessionRow> row;
        try {
            row = read.get();
        } catch (ForgedStateException e) {
            return Optional.empty();
        } catch (CorruptSessionDataException e) {
            with.counters().increment(StoreCounter.UNREADABLE_ON_LOAD);
            LOG.log(Level.WARNING, "Session {0} is unreadable and treated as absent: {1}", key.shortHex(), e.getMessage());
            return Optional.empty();
        }
        if (row.isEmpty() || !isSessionHere(row.get().state())) {
            with.counters().increment(StoreCounter.LOAD_MISSES);
            return Optional.empty();
        }
        if (with.expiry().isOverAt(row.get().state(), now())) {
            if (row.get().stale()) {
                with.counters().increment(StoreCounter.ERRORS);
                throw new StoreUnavailableException("The primary replica did not answer within timelineReadAfterMillis "
                        + "and a secondary holds this session ended (the primary may have a later access)",
                        key.shortHex(), null);
            }
            with.counters().increment(StoreCounter.EXPIRED_ON_LOAD);
            return Optional.empty();
        }
        return row;
    }

    /** Whether a stored state is a session of this store's session system (another system's row is none here). */
    private boolean isSessionHere(StoredState state) {
        return webapp.container().sees(state.sessionSystem());
    }

    /**
     * Waits for the session's lease and returns its token.
     *
     * @throws StoreUnavailableException if another request holds it past the deadline
     */
    private String takeLease(SessionKey key, Deadline deadline) {
        String token = UUID.randomUUID().toString();
        for (int attempt = 1; !with.rows().takeLease(key, token, leaseTimeout, deadline); attempt++) {
            if (!LEASE_BACKOFF.pauseBefore(attempt, deadline)) {
                throw new StoreUnavailableException("Another request held this session's lease for longer than "
                        + "operationTimeoutMillis=" + deadline.budgetMillis() + "; a lease is given back when its "
                        + "request saves, or after leaseTimeoutSeconds=" + leaseTimeout.toSeconds() + " if its node died",
                        key.shortHex(), null);
            }
        }
        return token;
    }

    /** The attributes of a state, decoded on first read with the codec the state was written with. */
    private SessionAttributes attributesOf(StoredState state, SessionKey key) {
        SessionCodec codec = codecs.get(state.codec());
        String keyHex = key == null ? "(new)" : key.shortHex();
        return new SessionAttributes(state.attributeBytes(), new SessionAttributes.Decoding() {
            @Override
            public SessionCodec codec() {
                return codec;
            }

            @Override
            public void undecodable(String name, CodecException failure) {
                with.counters().increment(failure.refused() ? StoreCounter.REFUSED_ATTRIBUTES
                        : StoreCounter.UNREADABLE_ATTRIBUTES);
                // The reason quotes class names read from the stored bytes: no line breaks of theirs reach the log.
                LOG.log(Level.WARNING, "Session {0}: attribute ''{1}'' {2} and is left out (its stored bytes are kept): "
                        + "{3}", keyHex, name, failure.refused() ? "was refused" : "cannot be read",
                        failure.getMessage().replaceAll("\\p{Cntrl}", "?"));
            }
        }, webapp.container()::hides, this::stores);
    }

    /**
     * What the web application lets the store keep, of a class the attribute class filter allows: a value
     * the filter refuses would be refused when read back, so it lives on this node only (as Tomcat keeps
     * values its own filter refuses from distribution). So does a value the container keeps under its own
     * attribute names (Tomcat's CSRF nonces, Jetty's saved FORM post) of a class the class rules refuse: the
     * container's, not the application's, it would fail the request it was set in.
     */
    private boolean stores(String name, Object value) {
        if (!webapp.stores().test(name, value)) {
            return false;
        }
        Class<?> type = value.getClass();
        String keptBecause = !classRules.allowsValueOf(type) ? "do not match attributeClassFilter"
                : webapp.container().owns(name) && classRules.refusalToInstantiate(type) != null
                        ? "are the container's own, and not a class session values may be of" : null;
        if (keptBecause == null) {
            return true;
        }
        if (classesKeptOnTheNode.add(type.getName())) {
            LOG.log(Level.WARNING, "Attribute values of class {0} {1}: they are kept on this node, not stored",
                    type.getName(), keptBecause);
        }
        return false;
    }

    private Deadline newDeadline() {
        return Deadline.afterMillis(settings.get(Setting.OPERATION_TIMEOUT_MILLIS));
    }

    private Instant now() {
        return with.clock().instant();
    }
}
