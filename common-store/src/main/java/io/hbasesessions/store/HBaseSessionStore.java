package io.hbasesessions.store;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Result;

/** The {@link SessionStore} over HBase, as DESIGN.md lays it out. Thread-safe; one per key scope. */
final class HBaseSessionStore implements SessionStore {

    /** A view of each table the store uses; tests wrap them to see the mutations the store sends. */
    interface TableView extends UnaryOperator<AsyncTable<AdvancedScanResultConsumer>> {
    }

    private final StoreContext ctx;
    private final SharedConnections.Lease connection;

    private HBaseSessionStore(StoreContext ctx, SharedConnections.Lease connection) {
        this.ctx = ctx;
        this.connection = connection;
    }

    /**
     * Connects (sharing a connection with other stores of the same configuration), creates or checks the
     * tables, and returns a store ready for requests.
     */
    static HBaseSessionStore open(StoreSettings settings, Clock clock, TableView tableView) {
        LiveCounters counters = new LiveCounters();
        HBaseCalls calls = new HBaseCalls(counters.errors);
        SharedConnections.Lease connection = SharedConnections.acquire(settings, calls);
        try {
            new SessionTables(connection.connection(), calls, settings).prepare();
            AsyncConnection hbase = connection.connection();
            SessionTable sessions = new SessionTable(tableView.apply(table(hbase, settings.table(), settings)), calls);
            PrincipalIndex index = new PrincipalIndex(tableView.apply(table(hbase, settings.indexTable(), settings)), calls);
            return new HBaseSessionStore(new StoreContext(settings, clock, counters, sessions, index), connection);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static AsyncTable<AdvancedScanResultConsumer> table(AsyncConnection hbase, String name, StoreSettings settings) {
        long timeoutMillis = settings.operationTimeoutMillis();
        return hbase.getTableBuilder(TableName.valueOf(name))
                .setOperationTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .setRpcTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .setScanTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .build();
    }

    @Override
    public String keyScope() {
        return ctx.settings.keyScope();
    }

    @Override
    public LoadedSession create(SessionRecord session) {
        SessionKey key = SessionKey.forNewSession(keyScope(), session.id());
        StateWrite write = insert(key, session, ctx.serialize(session, key), ctx.newDeadline());
        ctx.counters.creates.increment();
        return new LoadedSession(session, write.version(), write.state(), null);
    }

    @Override
    public Optional<LoadedSession> load(String sessionId) {
        ctx.counters.loads.increment();
        Optional<SessionKey> key = SessionKey.forLookup(keyScope(), sessionId);
        if (key.isEmpty()) {
            ctx.counters.loadMisses.increment();
            return Optional.empty();
        }
        Deadline deadline = ctx.newDeadline();
        if (ctx.settings.lockingMode() != LockingMode.PESSIMISTIC) {
            return ctx.readLive(key.get(), deadline).map(row -> ctx.decode(sessionId, key.get(), row, null));
        }
        return loadUnderLease(sessionId, key.get(), deadline);
    }

    /** Takes the lease before reading, so the state read is the one this request's save will replace. */
    private Optional<LoadedSession> loadUnderLease(String sessionId, SessionKey key, Deadline deadline) {
        String lease = ctx.leases.acquire(key, deadline);
        Optional<LoadedSession> loaded = Optional.empty();
        try {
            loaded = ctx.readLive(key, deadline).map(row -> ctx.decode(sessionId, key, row, lease));
            return loaded;
        } finally {
            if (loaded.isEmpty()) {
                ctx.leases.release(key, lease, deadline);
            }
        }
    }

    @Override
    public boolean exists(String sessionId) {
        Optional<SessionKey> key = SessionKey.forLookup(keyScope(), sessionId);
        return key.isPresent() && SessionRow.ifReadable(ctx.sessions.readRow(key.get(), ctx.newDeadline()))
                .filter(row -> row.isLiveAt(ctx.now())).isPresent();
    }

    @Override
    public SaveResult save(LoadedSession loaded, SessionRecord current) {
        return new SaveOperation(ctx, loaded, current).run();
    }

    @Override
    public void release(LoadedSession loaded) {
        if (loaded.leaseToken() != null) {
            ctx.leases.release(SessionKey.forNewSession(keyScope(), loaded.record().id()), loaded.leaseToken(),
                    ctx.newDeadline());
        }
    }

    @Override
    public boolean delete(String sessionId) {
        Optional<SessionKey> key = SessionKey.forLookup(keyScope(), sessionId);
        if (key.isEmpty()) {
            return false;
        }
        Deadline deadline = ctx.newDeadline();
        Result row = ctx.sessions.readRow(key.get(), deadline);
        if (row.isEmpty()) {
            return false;
        }
        // Read first: the row names the principal whose index entry goes too.
        Optional<SessionRow> session = SessionRow.ifReadable(row);
        ctx.sessions.delete(key.get(), deadline);
        session.ifPresent(s -> s.state().principal().ifPresent(
                principal -> ctx.index.remove(principal, s.state().creationTime(), key.get(), deadline)));
        if (session.isPresent()) {
            ctx.counters.deletes.increment();
        }
        return session.filter(s -> s.isLiveAt(ctx.now())).isPresent();
    }

    @Override
    public LoadedSession changeId(LoadedSession loaded, SessionRecord current, String newSessionId) {
        SessionKey oldKey = SessionKey.forNewSession(keyScope(), loaded.record().id());
        SessionKey newKey = SessionKey.forNewSession(keyScope(), newSessionId);
        SessionRecord moved = current.withId(newSessionId);
        Deadline deadline = ctx.newDeadline();
        StateWrite write = insert(newKey, moved, ctx.serialize(moved, newKey), deadline);
        ctx.sessions.delete(oldKey, deadline);
        SessionRecord old = loaded.record();
        old.principal().ifPresent(principal -> ctx.index.remove(principal, old.creationTime(), oldKey, deadline));
        ctx.counters.idChanges.increment();
        return new LoadedSession(moved, write.version(), write.state(), null);
    }

    /**
     * Writes a new session row durably, its index entry first. A row still there from an idle-expired
     * session with the same id (HBase drops cells only after their TTL) is replaced; a live one is not.
     */
    private StateWrite insert(SessionKey key, SessionRecord session, StoredState state, Deadline deadline) {
        StateWrite write = ctx.write(state, 1, Durability.SYNC_WAL, key);
        session.principal().ifPresent(principal -> ctx.index.add(principal, session.creationTime(), key, deadline));
        if (ctx.sessions.insert(key, write, deadline)) {
            ctx.counters.bytesWritten.add(write.cell().length);
            return write;
        }
        Optional<SessionRow> existing = SessionRow.ifReadable(ctx.sessions.readRow(key, deadline));
        if (existing.isPresent() && !existing.get().isLiveAt(ctx.now())) {
            StoredState stale = existing.get().state();
            StateWrite over = ctx.write(state.withCellTtlMillis(stale.cellTtlMillis()), existing.get().version() + 1,
                    Durability.SYNC_WAL, key);
            if (ctx.sessions.replace(key, existing.get().version(), over, deadline)) {
                ctx.counters.bytesWritten.add(over.cell().length);
                return over;
            }
        }
        throw new SessionAlreadyExistsException(key.shortHex());
    }

    @Override
    public List<IndexedSession> findByPrincipal(String principal) {
        Deadline deadline = ctx.newDeadline();
        Instant now = ctx.now();
        return sessionsOf(principal, indexEntries(principal, deadline), deadline).stream()
                .filter(owned -> owned.row().isLiveAt(now))
                .map(owned -> new IndexedSession(principal, owned.entry().session().hex(),
                        owned.row().state().creationTime()))
                .toList();
    }

    @Override
    public int revokeAll(String principal) {
        Deadline deadline = ctx.newDeadline();
        List<PrincipalIndex.Entry> entries = indexEntries(principal, deadline);
        if (entries.isEmpty()) {
            return 0;
        }
        List<OwnedSession> owned = sessionsOf(principal, entries, deadline);
        Instant now = ctx.now();
        int revoked = (int) owned.stream().filter(session -> session.row().isLiveAt(now)).count();
        // Sessions first, then the entries: a crash in between leaves entries that readers skip.
        ctx.sessions.deleteAll(owned.stream().map(session -> session.entry().session()).toList(), deadline);
        ctx.index.removeRows(entries.stream().map(PrincipalIndex.Entry::indexRow).toList(), deadline);
        ctx.counters.revocations.add(revoked);
        return revoked;
    }

    /** A session the index names whose row still exists and still belongs to the principal. */
    private record OwnedSession(PrincipalIndex.Entry entry, SessionRow row) {
    }

    private List<PrincipalIndex.Entry> indexEntries(String principal, Deadline deadline) {
        return principal == null || principal.isEmpty() ? List.of() : ctx.index.entries(principal, deadline);
    }

    /** Skips dangling entries (no row, or an unreadable one) and sessions handed to another principal since. */
    private List<OwnedSession> sessionsOf(String principal, List<PrincipalIndex.Entry> entries, Deadline deadline) {
        if (entries.isEmpty()) {
            return List.of();
        }
        List<Result> rows = ctx.sessions.readAll(entries.stream().map(PrincipalIndex.Entry::session).toList(), deadline);
        List<OwnedSession> owned = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            PrincipalIndex.Entry entry = entries.get(i);
            SessionRow.ifReadable(rows.get(i))
                    .filter(row -> row.state().principal().filter(principal::equals).isPresent())
                    .ifPresent(row -> owned.add(new OwnedSession(entry, row)));
        }
        return owned;
    }

    @Override
    public StoreCounters counters() {
        return ctx.counters.snapshot();
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public String toString() {
        return "HBaseSessionStore[keyScope=" + keyScope() + ", table=" + ctx.settings.table() + "]";
    }
}
