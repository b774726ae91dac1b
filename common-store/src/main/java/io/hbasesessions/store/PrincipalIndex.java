package io.hbasesessions.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The {@code user_sessions} table: which sessions a principal has, in every scope. Row key =
 * 2 salt bytes (spread principals over regions) + UTF-8 principal + '|' + reversed creation millis
 * (newest first); one qualifier per session, its 32-byte row key. Entries may dangle (a crash between
 * the index write and the session write): readers check the session row. No cell TTL here, so an
 * entry lives as long as the longest a session can (the family TTL), however long it stays active.
 */
final class PrincipalIndex {

    private static final byte SEPARATOR = '|';
    private static final int SALT_BYTES = 2;
    private static final byte[] NO_VALUE = new byte[0];

    /** One session of a principal, as the index names it. */
    record Entry(byte[] indexRow, String principal, Instant creationTime, SessionKey session) {
    }

    private final AsyncTable<?> table;
    private final HBaseCalls calls;

    PrincipalIndex(AsyncTable<?> table, HBaseCalls calls) {
        this.table = table;
        this.calls = calls;
    }

    void add(String principal, Instant creationTime, SessionKey session, Deadline deadline) {
        Put put = new Put(rowKey(principal, creationTime)).addColumn(SessionTable.FAMILY, session.row(), NO_VALUE);
        put.setDurability(Durability.SYNC_WAL);
        calls.await(table.put(put), deadline, session, "writing the principal index entry");
    }

    void remove(String principal, Instant creationTime, SessionKey session, Deadline deadline) {
        Delete delete = new Delete(rowKey(principal, creationTime)).addColumns(SessionTable.FAMILY, session.row());
        delete.setDurability(Durability.SYNC_WAL);
        calls.await(table.delete(delete), deadline, session, "deleting the principal index entry");
    }

    /** Every entry of exactly this principal, newest first; rows of other principals sharing the prefix are skipped. */
    List<Entry> entries(String principal, Deadline deadline) {
        Scan scan = new Scan().setStartStopRowForPrefixScan(prefix(principal)).addFamily(SessionTable.FAMILY);
        List<Result> rows = calls.await(table.scanAll(scan), deadline, null, "scanning the principal index");
        return rows.stream().flatMap(row -> entriesOf(row, principal)).toList();
    }

    /** Deletes whole index rows: every entry in them belongs to the one principal the row names. */
    void removeRows(List<byte[]> indexRows, Deadline deadline) {
        List<Delete> deletes = indexRows.stream().map(PrincipalIndex::durableRowDelete).toList();
        calls.await(table.deleteAll(deletes), deadline, null, "deleting " + deletes.size() + " principal index rows");
    }

    static byte[] rowKey(String principal, Instant creationTime) {
        return Bytes.add(prefix(principal), Bytes.toBytes(Long.MAX_VALUE - creationTime.toEpochMilli()));
    }

    private static byte[] prefix(String principal) {
        byte[] name = principal.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(SALT_BYTES + name.length + 1)
                .put(SessionKey.sha256(name), 0, SALT_BYTES).put(name).put(SEPARATOR).array();
    }

    private static Stream<Entry> entriesOf(Result row, String principal) {
        byte[] key = row.getRow();
        if (!principalOf(key).filter(principal::equals).isPresent()) {
            return Stream.empty();
        }
        Instant creationTime = Instant.ofEpochMilli(Long.MAX_VALUE - Bytes.toLong(key, key.length - Bytes.SIZEOF_LONG));
        return row.getFamilyMap(SessionTable.FAMILY).keySet().stream()
                .flatMap(qualifier -> SessionKey.fromRow(qualifier).stream())
                .map(session -> new Entry(key, principal, creationTime, session));
    }

    /** The principal a row names; salts collide and a principal may contain '|', so prefixes alone do not tell. */
    private static Optional<String> principalOf(byte[] key) {
        int separatorAt = key.length - Bytes.SIZEOF_LONG - 1;
        if (separatorAt < SALT_BYTES || key[separatorAt] != SEPARATOR) {
            return Optional.empty();
        }
        return Optional.of(new String(Arrays.copyOfRange(key, SALT_BYTES, separatorAt), StandardCharsets.UTF_8));
    }

    private static Delete durableRowDelete(byte[] indexRow) {
        Delete delete = new Delete(indexRow);
        delete.setDurability(Durability.SYNC_WAL);
        return delete;
    }
}
