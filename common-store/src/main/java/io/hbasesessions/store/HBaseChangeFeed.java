package io.hbasesessions.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;

/**
 * The {@code session_changes} table: one row per key scope (8 bytes of SHA-256 of the scope), one qualifier per
 * changed session and publishing node (the session's 32-byte row key + the node's route), holding the version
 * from which copies are current, with a cell TTL of {@link ChangeFeed#retentionMillis}. A reader gets the whole
 * row: only writes by a node that is not the session's home add to it, which sticky routing keeps rare. Nodes do
 * not overwrite each other's changes of one session, so a change is never replaced by a smaller one.
 */
final class HBaseChangeFeed implements ChangeFeed {

    private static final int SCOPE_HASH_BYTES = 8;

    private final AsyncTable<?> table;
    private final HBaseCalls calls;
    private final WriteDurability durability;
    private final long retentionMillis;
    private final byte[] row;

    /** @param durability of every change: a change lost in a crash would leave a copy stale */
    HBaseChangeFeed(AsyncTable<?> table, HBaseCalls calls, WriteDurability durability, long retentionMillis,
            String keyScope) {
        this.table = table;
        this.calls = calls;
        this.durability = durability;
        this.retentionMillis = retentionMillis;
        this.row = Arrays.copyOf(SessionKey.sha256(keyScope.getBytes(StandardCharsets.UTF_8)), SCOPE_HASH_BYTES);
    }

    @Override
    public void publish(Change change, Deadline deadline) {
        byte[] session = change.key().row();
        byte[] publisher = change.publisher().getBytes(StandardCharsets.UTF_8);
        byte[] qualifier = ByteBuffer.allocate(session.length + publisher.length).put(session).put(publisher).array();
        Put put = new Put(row).addColumn(HBaseSessionRows.FAMILY, qualifier, ByteBuffer.allocate(Long.BYTES)
                .putLong(change.version()).array());
        put.setTTL(retentionMillis);
        calls.await(table.put(HBaseSessionRows.durable(put, durability)), deadline, change.key(),
                "announcing the session's change to the other nodes' copies");
    }

    @Override
    public List<Change> read(Deadline deadline) {
        Result result = calls.await(table.get(new Get(row).addFamily(HBaseSessionRows.FAMILY)), deadline, null,
                "reading the sessions changed by other nodes");
        List<Change> changes = new ArrayList<>();
        for (Cell cell : result.rawCells()) {
            byte[] qualifier = CellUtil.cloneQualifier(cell);
            byte[] value = CellUtil.cloneValue(cell);
            if (qualifier.length <= SessionKey.ROW_BYTES || value.length != Long.BYTES) {
                continue;
            }
            SessionKey.fromRow(Arrays.copyOf(qualifier, SessionKey.ROW_BYTES)).ifPresent(key -> changes.add(
                    new Change(key, ByteBuffer.wrap(value).getLong(), new String(qualifier, SessionKey.ROW_BYTES,
                            qualifier.length - SessionKey.ROW_BYTES, StandardCharsets.UTF_8))));
        }
        return changes;
    }
}
