package io.hbasesessions.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The {@code session_expiry} table. Row key = salt byte + 8 bytes of SHA-256 of the key scope + the
 * bucket's due millis; one qualifier per session, its 32-byte row key, holding its sealed id; and
 * {@code lease} while a sweeper holds the bucket. The salt (the high 4 bits of the session's row key,
 * spread over the first key byte as the tables are pre-split) puts one bucket's writes on 16 regions;
 * each salt's due buckets are one range scan, so a sweep reads only buckets that are due.
 */
final class HBaseExpiryIndex implements ExpiryIndex {

    private static final int SALTS = 16;
    private static final int SCOPE_HASH_BYTES = 8;

    private final AsyncTable<?> table;
    private final HBaseCalls calls;
    private final byte[] scopeHash;

    HBaseExpiryIndex(AsyncTable<?> table, HBaseCalls calls, String keyScope) {
        this.table = table;
        this.calls = calls;
        this.scopeHash = Arrays.copyOf(SessionKey.sha256(keyScope.getBytes(StandardCharsets.UTF_8)),
                SCOPE_HASH_BYTES);
    }

    @Override
    public void add(Instant due, Entry entry, WriteDurability durability, Deadline deadline) {
        byte[] session = entry.session().row();
        Put put = new Put(rowKey(saltOf(session), due.toEpochMilli()))
                .addColumn(HBaseSessionRows.FAMILY, session, entry.sealedId());
        calls.await(table.put(HBaseSessionRows.durable(put, durability)), deadline, entry.session(),
                "writing the session's expiry index entry");
    }

    @Override
    public List<Bucket> dueBuckets(Instant now, int limit, Deadline deadline) {
        List<CompletableFuture<List<Result>>> scans = new ArrayList<>();
        for (int salt = 0; salt < SALTS; salt++) {
            byte saltByte = (byte) (salt * (256 / SALTS));
            Scan scan = new Scan().withStartRow(rowKey(saltByte, 0)).withStopRow(rowKey(saltByte, now.toEpochMilli() + 1))
                    .addFamily(HBaseSessionRows.FAMILY).setLimit(limit);
            scans.add(table.scanAll(scan));
        }
        List<Bucket> buckets = new ArrayList<>();
        for (CompletableFuture<List<Result>> scan : scans) {
            for (Result row : calls.await(scan, deadline, null, "scanning the expiry index")) {
                if (row.getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.LEASE) == null) {
                    buckets.add(bucketOf(row));
                }
            }
        }
        return buckets;
    }

    @Override
    public boolean claim(Bucket bucket, String leaseToken, Duration leaseTimeout, Deadline deadline) {
        Put take = new Put(bucket.row())
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.LEASE, Bytes.toBytes(leaseToken));
        take.setTTL(leaseTimeout.toMillis());
        take.setDurability(Durability.ASYNC_WAL);
        return calls.await(table.checkAndMutate(CheckAndMutate.newBuilder(bucket.row())
                .ifEquals(HBaseSessionRows.FAMILY, HBaseSessionRows.LEASE, HBaseSessionRows.FREE_LEASE).build(take)),
                deadline, null, "claiming an expiry bucket").isSuccess();
    }

    @Override
    public void finish(Bucket bucket, String leaseToken, List<Entry> done, Deadline deadline) {
        // Only the entries this sweep saw: an entry written into the bucket meanwhile stays for the next sweep.
        Delete delete = new Delete(bucket.row()).addColumns(HBaseSessionRows.FAMILY, HBaseSessionRows.LEASE);
        done.forEach(entry -> delete.addColumns(HBaseSessionRows.FAMILY, entry.session().row()));
        delete.setDurability(Durability.ASYNC_WAL);
        calls.await(table.checkAndMutate(CheckAndMutate.newBuilder(bucket.row())
                .ifEquals(HBaseSessionRows.FAMILY, HBaseSessionRows.LEASE, Bytes.toBytes(leaseToken)).build(delete)),
                deadline, null, "finishing an expiry bucket");
    }

    private byte[] rowKey(byte salt, long dueMillis) {
        return ByteBuffer.allocate(1 + SCOPE_HASH_BYTES + Long.BYTES).put(salt).put(scopeHash).putLong(dueMillis).array();
    }

    private static byte saltOf(byte[] sessionRow) {
        return (byte) (sessionRow[0] & 0xF0);
    }

    /** Cells that are not a session's entry (the lease, or bytes someone else wrote) are not entries. */
    private static Bucket bucketOf(Result row) {
        byte[] key = row.getRow();
        Instant due = Instant.ofEpochMilli(Bytes.toLong(key, key.length - Long.BYTES));
        List<Entry> entries = new ArrayList<>();
        for (Map.Entry<byte[], byte[]> cell : row.getFamilyMap(HBaseSessionRows.FAMILY).entrySet()) {
            SessionKey.fromRow(cell.getKey()).ifPresent(session -> entries.add(new Entry(session, cell.getValue())));
        }
        return new Bucket(key, due, entries);
    }
}
