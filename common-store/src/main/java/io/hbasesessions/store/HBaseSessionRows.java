package io.hbasesessions.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.client.AsyncTableRegionLocator;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;

/** {@link SessionRows} in the HBase {@code sessions} table: family {@code s}, cells {@code state}, {@code ver}, {@code lease}. */
final class HBaseSessionRows implements SessionRows {

    static final byte[] FAMILY = Bytes.toBytes("s");
    static final byte[] STATE = Bytes.toBytes("state");
    static final byte[] VERSION = Bytes.toBytes("ver");
    static final byte[] LEASE = Bytes.toBytes("lease");
    /** Lease cells guard no data: a lease lost in a region server crash only ends one request's exclusivity. */
    private static final Durability LEASE_DURABILITY = Durability.ASYNC_WAL;
    /**
     * A lease is given back by writing it empty: HBase treats an empty expected value as "missing or
     * empty", so one condition finds a lease free whether it was given back, expired or never taken.
     */
    static final byte[] FREE_LEASE = new byte[0];
    /**
     * The state cell of a session that ended ({@link SessionRows}): one zero byte, which no state the store writes
     * is (a state cell starts with a format byte that is never zero and holds a checksum). Not empty: HBase takes
     * an empty expected value for "missing or empty", and a create must tell a row that never held a session from
     * one where a session ended.
     */
    static final byte[] ENDED = {0};
    /** Attempts to end an unreadable row while its version cell keeps changing under it. */
    private static final int UNREADABLE_END_ATTEMPTS = 3;

    private final AsyncTable<?> table;
    private final HBaseCalls calls;
    private final WriteDurability endDurability;
    private final StateSeal seal;
    private final Consistency loadConsistency;
    private final Function<Get, CompletableFuture<Result>> gets;
    private final Function<CheckAndMutate, CompletableFuture<CheckAndMutateResult>> conditionalWrites;

    /**
     * @param endDurability of session ends: invalidation and revocation must not be undone by a crash
     * @param seal checks each state cell read before it is parsed
     * @param timelineReads whether loads may be answered by a secondary replica
     * @param coalescing where the Gets and conditional writes of concurrent requests find each other
     *     ({@code coalesceCalls}), or empty to send each on its own
     */
    HBaseSessionRows(AsyncTable<?> table, HBaseCalls calls, WriteDurability endDurability, StateSeal seal,
            boolean timelineReads, Optional<Coalescing> coalescing) {
        this.table = table;
        this.calls = calls;
        this.endDurability = endDurability;
        this.seal = seal;
        this.loadConsistency = timelineReads ? Consistency.TIMELINE : Consistency.STRONG;
        Function<Get, CompletableFuture<Result>> getAlone = table::get;
        Function<List<Get>, List<CompletableFuture<Result>>> getTogether = table::get;
        this.gets = coalescing.map(with -> new CallCoalescer<>(with.locator(), getAlone, getTogether, with.counters()))
                .<Function<Get, CompletableFuture<Result>>>map(coalescer -> coalescer::send).orElse(getAlone);
        Function<CheckAndMutate, CompletableFuture<CheckAndMutateResult>> writeAlone = table::checkAndMutate;
        Function<List<CheckAndMutate>, List<CompletableFuture<CheckAndMutateResult>>> writeTogether =
                table::checkAndMutate;
        this.conditionalWrites = coalescing
                .map(with -> new CallCoalescer<>(with.locator(), writeAlone, writeTogether, with.counters()))
                .<Function<CheckAndMutate, CompletableFuture<CheckAndMutateResult>>>map(coalescer -> coalescer::send)
                .orElse(writeAlone);
    }

    /** What coalescing calls needs: the table's region locations as the client caches them, and the counters. */
    record Coalescing(AsyncTableRegionLocator locator, LiveCounters counters) {
    }

    @Override
    public Optional<SessionRow> read(SessionKey key, Deadline deadline) {
        return parse(key, calls.await(gets.apply(get(key)), deadline, key, "reading the session"));
    }

    @Override
    public Optional<SessionRow> readForLoad(SessionKey key, Deadline deadline) {
        Get get = get(key).setConsistency(loadConsistency);
        // A multi-action has no fallback to the secondaries: a timeline read goes on its own.
        CompletableFuture<Result> reading = loadConsistency == Consistency.TIMELINE ? table.get(get) : gets.apply(get);
        Result result = calls.await(reading, deadline, key, "reading the session");
        if (result.isStale() && result.getValue(FAMILY, STATE) == null) {
            throw calls.unavailable("The primary replica did not answer within timelineReadAfterMillis and a "
                    + "secondary holds no session under this id (it may not have this session yet)", key);
        }
        return parse(key, result);
    }

    @Override
    public List<Optional<SessionRow>> readAll(List<SessionKey> keys, Deadline deadline) {
        List<Result> results = calls.await(table.getAll(keys.stream().map(HBaseSessionRows::get).toList()), deadline,
                null, "reading " + keys.size() + " sessions");
        List<Optional<SessionRow>> rows = new ArrayList<>(results.size());
        for (int i = 0; i < results.size(); i++) {
            try {
                rows.add(parse(keys.get(i), results.get(i)));
            } catch (CorruptSessionDataException e) {
                rows.add(Optional.empty());
            }
        }
        return rows;
    }

    @Override
    public boolean insert(SessionKey key, RowWrite write, Deadline deadline) {
        return conditional(CheckAndMutate.newBuilder(key.row()).ifNotExists(FAMILY, STATE).build(put(key, write)), key,
                deadline);
    }

    @Override
    public boolean insertOverEnd(SessionKey key, RowWrite write, Deadline deadline) {
        return conditional(CheckAndMutate.newBuilder(key.row()).ifEquals(FAMILY, STATE, ENDED).build(put(key, write)),
                key, deadline);
    }

    @Override
    public boolean replace(SessionKey key, long expectedVersion, RowWrite write, Deadline deadline) {
        return conditional(CheckAndMutate.newBuilder(key.row())
                .ifEquals(FAMILY, VERSION, Bytes.toBytes(expectedVersion)).build(put(key, write)), key, deadline);
    }

    @Override
    public boolean replaceUnderLease(SessionKey key, long expectedVersion, String leaseToken, RowWrite write,
            Deadline deadline) {
        FilterList leaseAndVersion = new FilterList(FilterList.Operator.MUST_PASS_ALL,
                cellEquals(LEASE, Bytes.toBytes(leaseToken)), cellEquals(VERSION, Bytes.toBytes(expectedVersion)));
        Put writeAndRelease = put(key, write).addColumn(FAMILY, LEASE, FREE_LEASE);
        return conditional(CheckAndMutate.newBuilder(key.row()).ifMatches(leaseAndVersion).build(writeAndRelease),
                key, deadline);
    }

    @Override
    public boolean end(SessionKey key, SessionRow session, Deadline deadline) {
        return conditional(endOf(key, session), key, deadline);
    }

    @Override
    public List<SessionKey> endAll(List<Ending> endings, Deadline deadline) {
        List<CheckAndMutate> ends = endings.stream().map(ending -> endOf(ending.key(), ending.session())).toList();
        List<CheckAndMutateResult> results = calls.await(table.checkAndMutateAll(ends), deadline, null,
                "ending " + endings.size() + " sessions");
        List<SessionKey> changed = new ArrayList<>();
        for (int i = 0; i < endings.size(); i++) {
            if (!results.get(i).isSuccess()) {
                changed.add(endings.get(i).key());
            }
        }
        return changed;
    }

    @Override
    public boolean endUnreadable(SessionKey key, Deadline deadline) {
        for (int attempt = 0; attempt < UNREADABLE_END_ATTEMPTS; attempt++) {
            byte[] version = calls.await(table.get(new Get(key.row()).addColumn(FAMILY, VERSION)), deadline, key,
                    "reading the session's version").getValue(FAMILY, VERSION);
            CheckAndMutate.Builder unchanged = CheckAndMutate.newBuilder(key.row());
            CheckAndMutate end = (version == null ? unchanged.ifNotExists(FAMILY, VERSION)
                    : unchanged.ifEquals(FAMILY, VERSION, version))
                    .build(endMarker(key, version != null && version.length == Bytes.SIZEOF_LONG ? Bytes.toLong(version) + 1 : 1,
                            Long.MAX_VALUE));
            if (conditional(end, key, deadline)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean takeLease(SessionKey key, String leaseToken, Duration leaseTimeout, Deadline deadline) {
        Put take = leasePut(key, Bytes.toBytes(leaseToken));
        take.setTTL(leaseTimeout.toMillis());
        return conditional(CheckAndMutate.newBuilder(key.row()).ifEquals(FAMILY, LEASE, FREE_LEASE).build(take),
                key, deadline);
    }

    @Override
    public void dropLease(SessionKey key, String leaseToken, Deadline deadline) {
        conditional(CheckAndMutate.newBuilder(key.row()).ifEquals(FAMILY, LEASE, Bytes.toBytes(leaseToken))
                .build(leasePut(key, FREE_LEASE)), key, deadline);
    }

    /**
     * Empty when the row holds no session (missing, expired by its TTL, ended, or only a lease).
     *
     * @throws CorruptSessionDataException if the cells are not a session this store wrote
     *     ({@link ForgedStateException} if they fail {@code stateProtection})
     */
    private Optional<SessionRow> parse(SessionKey key, Result result) {
        return parse(seal, key, result);
    }

    /** As the store reads a row: for every reader of session rows (the store, {@code hbase-sessions stats}). */
    static Optional<SessionRow> parse(StateSeal seal, SessionKey key, Result result) {
        byte[] state = result.getValue(FAMILY, STATE);
        if (state == null || isEnd(state)) {
            return Optional.empty();
        }
        byte[] version = result.getValue(FAMILY, VERSION);
        if (version == null || version.length != Bytes.SIZEOF_LONG) {
            throw new CorruptSessionDataException("the version cell is "
                    + (version == null ? "missing" : version.length + " bytes instead of 8"));
        }
        long stored = Bytes.toLong(version);
        return Optional.of(new SessionRow(StoredState.parse(seal.open(key, stored, state)), stored, result.isStale()));
    }

    private boolean conditional(CheckAndMutate checkAndMutate, SessionKey key, Deadline deadline) {
        CompletableFuture<CheckAndMutateResult> writing = waitsForWalSync(checkAndMutate)
                ? table.checkAndMutate(checkAndMutate) : conditionalWrites.apply(checkAndMutate);
        return calls.await(writing, deadline, key, "writing the session").isSuccess();
    }

    /**
     * A region server runs the conditional writes of one multi-action one after another in one handler, each
     * with its own WAL sync under its row lock (HBase 2.6 {@code RSRpcServices.multi}), while writes from
     * concurrent handlers share a sync: coalescing writes that wait for the sync would serialize what HDFS
     * does at once. Only those that wait for none (touches and leases, ASYNC_WAL) travel together.
     */
    private static boolean waitsForWalSync(CheckAndMutate checkAndMutate) {
        return !(checkAndMutate.getAction() instanceof Mutation mutation)
                || mutation.getDurability() != Durability.ASYNC_WAL;
    }

    private static Get get(SessionKey key) {
        return new Get(key.row()).addFamily(FAMILY);
    }

    private static Put put(SessionKey key, RowWrite write) {
        Put put = new Put(key.row())
                .addColumn(FAMILY, STATE, write.stateCell())
                .addColumn(FAMILY, VERSION, Bytes.toBytes(write.version()));
        write.cellTtlMillis().ifPresent(put::setTTL);
        return durable(put, write.durability());
    }

    /** Whether a state cell is the end marker of a session that ended. */
    static boolean isEnd(byte[] stateCell) {
        return Arrays.equals(stateCell, ENDED);
    }

    private CheckAndMutate endOf(SessionKey key, SessionRow session) {
        return CheckAndMutate.newBuilder(key.row()).ifEquals(FAMILY, VERSION, Bytes.toBytes(session.version()))
                .build(endMarker(key, session.version() + 1, session.state().cellTtlMillis()));
    }

    /**
     * The end of a session at {@code version}, living {@code cellTtlMillis}; none (the table's TTL alone) for cells
     * whose TTL is not known ({@code Long.MAX_VALUE}) or a state that recorded none.
     */
    private Put endMarker(SessionKey key, long version, long cellTtlMillis) {
        Put end = new Put(key.row())
                .addColumn(FAMILY, STATE, ENDED)
                .addColumn(FAMILY, VERSION, Bytes.toBytes(version))
                .addColumn(FAMILY, LEASE, FREE_LEASE);
        if (cellTtlMillis > 0 && cellTtlMillis != Long.MAX_VALUE) {
            end.setTTL(cellTtlMillis);
        }
        return durable(end, endDurability);
    }

    private static Put leasePut(SessionKey key, byte[] value) {
        Put lease = new Put(key.row()).addColumn(FAMILY, LEASE, value);
        lease.setDurability(LEASE_DURABILITY);
        return lease;
    }

    private static SingleColumnValueFilter cellEquals(byte[] qualifier, byte[] value) {
        SingleColumnValueFilter filter = new SingleColumnValueFilter(FAMILY, qualifier, CompareOperator.EQUAL, value);
        filter.setFilterIfMissing(true);
        return filter;
    }

    static <M extends Mutation> M durable(M mutation, WriteDurability durability) {
        mutation.setDurability(Durability.valueOf(durability.name()));
        return mutation;
    }
}
