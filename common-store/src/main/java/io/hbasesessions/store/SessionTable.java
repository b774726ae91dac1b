package io.hbasesessions.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * Reads and writes of session rows in the {@code sessions} table. Every conditional write reports
 * whether its condition held: losing a race is an answer, not an error.
 */
final class SessionTable {

    static final byte[] FAMILY = Bytes.toBytes("s");
    static final byte[] STATE = Bytes.toBytes("state");
    static final byte[] VERSION = Bytes.toBytes("ver");
    static final byte[] LEASE = Bytes.toBytes("lease");
    /** A lease outlives a crashed holder by at most this long. */
    static final Duration LEASE_TTL = Duration.ofSeconds(30);
    /** Lease cells guard no data: a lease lost in a region server crash only ends one request's exclusivity. */
    private static final Durability LEASE_DURABILITY = Durability.ASYNC_WAL;
    /**
     * A lease is given back by writing it empty, never by deleting it: a delete marker hides every
     * later put with the same millisecond timestamp, so the next holder's lease would be invisible.
     */
    private static final byte[] FREE_LEASE = new byte[0];

    private final AsyncTable<?> table;
    private final HBaseCalls calls;

    SessionTable(AsyncTable<?> table, HBaseCalls calls) {
        this.table = table;
        this.calls = calls;
    }

    /** @throws CorruptSessionDataException if the row holds cells this store cannot read */
    Optional<SessionRow> read(SessionKey key, Deadline deadline) {
        return SessionRow.from(readRow(key, deadline));
    }

    /** The row as HBase holds it (an empty result when there is none). */
    Result readRow(SessionKey key, Deadline deadline) {
        return calls.await(table.get(new Get(key.row()).addFamily(FAMILY)), deadline, key, "reading the session");
    }

    /** The rows of many sessions, in the order of {@code keys} (empty results for missing rows). */
    List<Result> readAll(List<SessionKey> keys, Deadline deadline) {
        List<Get> gets = keys.stream().map(key -> new Get(key.row()).addFamily(FAMILY)).toList();
        return calls.await(table.getAll(gets), deadline, null, "reading " + keys.size() + " sessions");
    }

    /** Writes a new session; false if the row already holds one (live or not: the caller decides). */
    boolean insert(SessionKey key, StateWrite write, Deadline deadline) {
        CheckAndMutate insert = CheckAndMutate.newBuilder(key.row()).ifNotExists(FAMILY, VERSION).build(write.toPut(key));
        return conditional(insert, key, deadline);
    }

    /** Writes over exactly version {@code expectedVersion}; false if another write got in first. */
    boolean replace(SessionKey key, long expectedVersion, StateWrite write, Deadline deadline) {
        CheckAndMutate replace = CheckAndMutate.newBuilder(key.row())
                .ifEquals(FAMILY, VERSION, versionBytes(expectedVersion)).build(write.toPut(key));
        return conditional(replace, key, deadline);
    }

    /** Writes and gives back the lease in one atomic put; false if the lease is no longer ours. */
    boolean replaceUnderLease(SessionKey key, String leaseToken, StateWrite write, Deadline deadline) {
        Put writeAndRelease = write.toPut(key).addColumn(FAMILY, LEASE, FREE_LEASE);
        CheckAndMutate replace = CheckAndMutate.newBuilder(key.row())
                .ifEquals(FAMILY, LEASE, Bytes.toBytes(leaseToken)).build(writeAndRelease);
        return conditional(replace, key, deadline);
    }

    /** An unconditional write (locking mode none): the last writer wins the whole session. */
    void overwrite(SessionKey key, StateWrite write, Deadline deadline) {
        calls.await(table.put(write.toPut(key)), deadline, key, "writing the session");
    }

    /** Deletes the whole row, lease included, durably (invalidation is not to be undone by a crash). */
    void delete(SessionKey key, Deadline deadline) {
        calls.await(table.delete(rowDelete(key)), deadline, key, "deleting the session");
    }

    void deleteAll(List<SessionKey> keys, Deadline deadline) {
        List<Delete> deletes = keys.stream().map(SessionTable::rowDelete).toList();
        calls.await(table.deleteAll(deletes), deadline, null, "deleting " + keys.size() + " sessions");
    }

    /**
     * Takes the row's lease if it is free: missing, expired by its TTL (a dead holder) or given back.
     * HBase treats an empty expected value as "missing or empty", so one condition covers all three.
     */
    boolean takeLease(SessionKey key, String leaseToken, Deadline deadline) {
        CheckAndMutate take = CheckAndMutate.newBuilder(key.row()).ifEquals(FAMILY, LEASE, FREE_LEASE)
                .build(leasePut(key, Bytes.toBytes(leaseToken)));
        return conditional(take, key, deadline);
    }

    /** Gives the lease back if it is still ours (it may have expired and been taken by another request). */
    void dropLease(SessionKey key, String leaseToken, Deadline deadline) {
        CheckAndMutate drop = CheckAndMutate.newBuilder(key.row())
                .ifEquals(FAMILY, LEASE, Bytes.toBytes(leaseToken)).build(leasePut(key, FREE_LEASE));
        conditional(drop, key, deadline);
    }

    static byte[] versionBytes(long version) {
        return Bytes.toBytes(version);
    }

    private boolean conditional(CheckAndMutate checkAndMutate, SessionKey key, Deadline deadline) {
        return calls.await(table.checkAndMutate(checkAndMutate), deadline, key, "writing the session").isSuccess();
    }

    private static Delete rowDelete(SessionKey key) {
        Delete delete = new Delete(key.row());
        delete.setDurability(Durability.SYNC_WAL);
        return delete;
    }

    private static Put leasePut(SessionKey key, byte[] value) {
        Put lease = new Put(key.row()).addColumn(FAMILY, LEASE, value);
        lease.setTTL(LEASE_TTL.toMillis());
        lease.setDurability(LEASE_DURABILITY);
        return lease;
    }
}
