package io.hbasesessions.store;

import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The {@link SessionStore} protocol: how sessions are loaded, saved under conditions, merged, moved and deleted,
 * over the {@link SessionRows} and {@link UserIndex} interfaces; no HBase type. {@link StoreFactory} wires its
 * collaborators. Thread-safe; one per web application.
 */
final class SessionProtocol implements SessionStore {

    /** Reads and conditional ends of one row before ending it gives up: each failed end means another write got in. */
    static final int MAX_END_ATTEMPTS = 10;

    private final String keyScope;
    private final StoreSettings settings;
    private final SaveOperation.Collaborators with;
    private final AttributePolicy values;
    private final LiveReads reads;
    private final UserSessions users;
    private final SessionCreation creation;
    private final SavePlan.Durabilities durabilities;
    private final Optional<ExpirySweeper> sweeper;
    private final StickyCopies copies;
    private final Supplier<StoreHealth> health;
    private final Runnable onClose;
    private final LiveLatencies latencies = new LiveLatencies();
    /** {@code principalAttribute}'s names, read once: every save asks them. */
    private final List<String> principalAttributes;

    SessionProtocol(StoreSettings settings, SaveOperation.Collaborators with, AttributePolicy values, LiveReads reads,
            UserSessions users, Optional<ExpirySweeper> sweeper, StickyCopies copies, Supplier<StoreHealth> health,
            Runnable onClose) {
        this.keyScope = settings.get(Setting.KEY_SCOPE);
        this.settings = settings;
        this.principalAttributes = settings.find(Setting.PRINCIPAL_ATTRIBUTE).map(IndexedUsers::names).orElse(List.of());
        this.with = with;
        this.values = values;
        this.reads = reads;
        this.users = users;
        this.durabilities = SavePlan.Durabilities.of(settings);
        this.creation = new SessionCreation(settings, with, durabilities);
        this.sweeper = sweeper;
        this.copies = copies;
        this.health = health;
        this.onClose = onClose;
    }

    /** The operator's work on this store's rows, under its rules. */
    OperatorWork operatorWork() {
        return new OperatorWork(settings, with, values, users);
    }

    @Override
    public String keyScope() {
        return keyScope;
    }

    @Override
    public StoredSession newSession(SessionRecord record, boolean transientSession) {
        StoredState state = StoredState.newSession(values.writeKind(), record, copies.homeOfNewSessions());
        return new StoredSession(record, state, 0, values.attributesOf(state, null), null, transientSession, false);
    }

    @Override
    public Optional<StoredSession> load(String sessionId) {
        return load(sessionId, null);
    }

    @Override
    public Optional<StoredSession> load(String sessionId, String route) {
        long started = System.nanoTime();
        Optional<StoredSession> loaded = read(sessionId, route);
        latencies.record(StoreOperation.LOAD, started);
        return loaded;
    }

    private Optional<StoredSession> read(String sessionId, String route) {
        with.counters().increment(StoreCounter.LOADS);
        Optional<SessionKey> key = SessionKey.forLookup(keyScope, sessionId);
        if (key.isEmpty()) {
            with.counters().increment(StoreCounter.LOAD_MISSES);
            return Optional.empty();
        }
        Deadline deadline = settings.operationDeadline();
        if (with.lockingMode() != LockingMode.PESSIMISTIC) {
            return loadOptimistic(sessionId, key.get(), route, deadline);
        }
        // The lease was just taken on the primary: the read under it is the primary's too.
        String lease = reads.takeLease(key.get(), deadline);
        Optional<StoredSession> loaded = reads.readLive(key.get(), deadline).map(row -> values.loaded(sessionId, key.get(), row, lease));
        if (loaded.isEmpty()) {
            with.rows().dropLease(key.get(), lease, deadline);
        }
        return loaded;
    }

    /**
     * From this node's copy when the request is routed here and the copy is current ({@code stickySessions}), else
     * from HBase; a session read from HBase whose home is elsewhere moves here with its next save, unless the request
     * was routed here (its id still names this node: the session moved away since, and stays where it went).
     */
    private Optional<StoredSession> loadOptimistic(String sessionId, SessionKey key, String route, Deadline deadline) {
        boolean routedHere = copies.isRoutedHere(route);
        if (routedHere) {
            Optional<SessionRow> copy = copies.current(key).filter(row -> !with.expiry().isOverAt(row.state(), now()));
            if (copy.isPresent()) {
                return Optional.of(values.loaded(sessionId, key, copy.get(), null));
            }
        }
        Optional<SessionRow> row = reads.loadLive(key, deadline);
        if (row.isEmpty()) {
            copies.forget(key);
            return Optional.empty();
        }
        copies.remember(key, row.get());
        StoredSession loaded = values.loaded(sessionId, key, row.get(), null);
        StoredState state = row.get().state();
        if (copies.claims(state) && (!routedHere || state.home().isEmpty())) {
            copies.homeOfNewSessions().ifPresent(loaded::claimHome);
        }
        return Optional.of(loaded);
    }

    @Override
    public Set<String> liveAmong(Collection<String> sessionIds) {
        Map<SessionKey, String> idsByKey = new LinkedHashMap<>();
        sessionIds.forEach(id -> SessionKey.forLookup(keyScope, id).ifPresent(key -> idsByKey.put(key, id)));
        if (idsByKey.isEmpty()) {
            return Set.of();
        }
        List<SessionKey> keys = List.copyOf(idsByKey.keySet());
        List<Optional<SessionRow>> rows = with.rows().readAll(keys, settings.operationDeadline());
        Set<String> live = new HashSet<>();
        Instant now = now();
        for (int i = 0; i < keys.size(); i++) {
            if (rows.get(i).filter(row -> reads.isSessionHere(row.state()) && !with.expiry().isOverAt(row.state(), now))
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
            return creation.create(session, plan, key);
        }
        return new SaveOperation(with, session, plan, key, settings.operationDeadline()).run();
    }

    private SavePlan planFor(StoredSession session, SessionRecord current, SessionKey key) {
        AttributeChanges changes = session.attributes().changes(key.shortHex());
        return SavePlan.decide(session.state(), current, changes, IndexedUsers.of(session, current, changes, key,
                principalAttributes), session.claimedHome(), with.expiry(), durabilities);
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
        Optional<SessionRow> row = reads.readLive(key, settings.operationDeadline());
        if (row.isEmpty() && storedBefore) {
            return SaveResult.GONE;
        }
        StoredSession session = row.map(found -> values.loaded(current.id(), key, found, null))
                .orElseGet(() -> newSession(current, false));
        session.attributes().replaceWith(attributes);
        return write(session, current);
    }

    @Override
    public void release(StoredSession session) {
        String lease = session.takeLeaseToken();
        if (lease != null) {
            with.rows().dropLease(SessionKey.forNewSession(keyScope, session.record().id()), lease, settings.operationDeadline());
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
        Deadline deadline = settings.operationDeadline();
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
            Deadline deadline = settings.operationDeadline();
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
            if (row.isEmpty() || !reads.isSessionHere(row.get().state())) {
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
        Deadline deadline = settings.operationDeadline();
        UserIndex.Entry newEntry = plan.newUser().or(session::indexedUser)
                .map(user -> with.entries().of(user, moved.creationTime(), newKey, newSessionId)).orElse(null);
        if (newEntry != null) {
            with.index().add(newEntry, deadline);
        }
        RowWrite write = creation.insert(newKey, plan, deadline)
                .orElseThrow(() -> new SessionAlreadyExistsException(newKey.shortHex()));
        SessionRow old = new SessionRow(session.state(), session.version(), false);
        while (!with.rows().end(oldKey, old, deadline)) {
            // Another writer changed the old row after this request read it: carry its state over, or
            // take the new row back if the session was deleted meanwhile.
            Optional<SessionRow> newer = reads.readLive(oldKey, deadline);
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
        return users.find(user, settings.operationDeadline());
    }

    @Override
    public List<String> findIdsByUser(String user) {
        return users.idsOf(user, keyScope, settings.operationDeadline());
    }

    @Override
    public int revokeAll(String user) {
        long started = System.nanoTime();
        int revoked = users.revoke(user, settings.operationDeadline());
        latencies.record(StoreOperation.REVOKE, started);
        return revoked;
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
        copies.close();
        OpenStores.closed(this);
        onClose.run();
    }

    @Override
    public String toString() {
        return "SessionStore[keyScope=" + keyScope + ", table=" + settings.get(Setting.TABLE) + "]";
    }

    private Instant now() {
        return with.clock().instant();
    }
}
