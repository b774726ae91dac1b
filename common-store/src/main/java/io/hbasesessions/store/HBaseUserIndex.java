package io.hbasesessions.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The {@code user_sessions} table. Row key = 2 salt bytes (spread users over regions) + UTF-8 user +
 * '|' + reversed creation millis (newest first); one qualifier per session, its 32-byte row key, holding
 * nothing or, for the stores that keep them ({@link IndexEntries}), the session's sealed id. No
 * cell TTL: an entry is written when its session gets its user, which is never before the session was
 * created, so the table's TTL ({@code maxLifetimeSeconds}) keeps it at least as long as the session
 * can live.
 */
final class HBaseUserIndex implements UserIndex {

    private static final byte SEPARATOR = '|';
    private static final int SALT_BYTES = 2;

    private final AsyncTable<?> table;
    private final HBaseCalls calls;
    private final WriteDurability durability;

    /** @param durability of every index write: logins and revocations must survive a crash */
    HBaseUserIndex(AsyncTable<?> table, HBaseCalls calls, WriteDurability durability) {
        this.table = table;
        this.calls = calls;
        this.durability = durability;
    }

    @Override
    public void add(Entry entry, Deadline deadline) {
        Put put = new Put(rowKey(entry)).addColumn(HBaseSessionRows.FAMILY, entry.session().row(), entry.sealedId());
        calls.await(table.put(HBaseSessionRows.durable(put, durability)), deadline, entry.session(),
                "writing the user index entry");
    }

    @Override
    public void remove(Entry entry, Deadline deadline) {
        calls.await(table.delete(entryDelete(entry)), deadline, entry.session(), "deleting the user index entry");
    }

    @Override
    public List<Entry> entries(String user, Deadline deadline) {
        Scan scan = new Scan().setStartStopRowForPrefixScan(prefix(user)).addFamily(HBaseSessionRows.FAMILY);
        List<Result> rows = calls.await(table.scanAll(scan), deadline, null, "scanning the user index");
        return rows.stream().flatMap(row -> entriesOf(row, user)).toList();
    }

    @Override
    public void removeAll(List<Entry> entries, Deadline deadline) {
        calls.await(table.deleteAll(entries.stream().map(this::entryDelete).toList()), deadline, null,
                "deleting " + entries.size() + " user index entries");
    }

    @Override
    public Page page(Optional<byte[]> after, int rows, Instant writtenBefore, Deadline deadline) {
        Scan scan = new Scan().addFamily(HBaseSessionRows.FAMILY).setLimit(rows);
        try {
            scan.setTimeRange(0, writtenBefore.toEpochMilli());
        } catch (IOException e) {
            throw new IllegalArgumentException("Not a time range: before " + writtenBefore, e);
        }
        after.ifPresent(start -> scan.withStartRow(start, false));
        List<Result> results = calls.await(table.scanAll(scan), deadline, null, "scanning the user index");
        List<Entry> entries = new ArrayList<>();
        long unparseable = 0;
        for (Result row : results) {
            Optional<String> user = userOf(row.getRow()).filter(name -> saltMatches(row.getRow(), name));
            if (user.isEmpty()) {
                unparseable++;
            } else {
                entriesOf(row, user.get()).forEach(entries::add);
            }
        }
        Optional<byte[]> next = results.size() < rows ? Optional.empty()
                : Optional.of(results.get(results.size() - 1).getRow());
        return new Page(entries, unparseable, next);
    }

    private static boolean saltMatches(byte[] key, String user) {
        byte[] salt = SessionKey.sha256(user.getBytes(StandardCharsets.UTF_8));
        return Bytes.equals(key, 0, SALT_BYTES, salt, 0, SALT_BYTES);
    }

    private Delete entryDelete(Entry entry) {
        Delete delete = new Delete(rowKey(entry)).addColumns(HBaseSessionRows.FAMILY, entry.session().row());
        return HBaseSessionRows.durable(delete, durability);
    }

    private static byte[] rowKey(Entry entry) {
        return Bytes.add(prefix(entry.user()), Bytes.toBytes(Long.MAX_VALUE - entry.creationTime().toEpochMilli()));
    }

    private static byte[] prefix(String user) {
        byte[] name = user.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(SALT_BYTES + name.length + 1)
                .put(SessionKey.sha256(name), 0, SALT_BYTES).put(name).put(SEPARATOR).array();
    }

    private static Stream<Entry> entriesOf(Result row, String user) {
        byte[] key = row.getRow();
        if (!userOf(key).filter(user::equals).isPresent()) {
            return Stream.empty();
        }
        Instant creationTime = Instant.ofEpochMilli(Long.MAX_VALUE - Bytes.toLong(key, key.length - Bytes.SIZEOF_LONG));
        return row.getFamilyMap(HBaseSessionRows.FAMILY).entrySet().stream()
                .flatMap(cell -> SessionKey.fromRow(cell.getKey()).stream()
                        .map(session -> new Entry(user, creationTime, session, cell.getValue())));
    }

    /** The user a row names; salts collide and a name may contain '|', so prefixes alone do not tell. */
    private static Optional<String> userOf(byte[] key) {
        int separatorAt = key.length - Bytes.SIZEOF_LONG - 1;
        if (separatorAt < SALT_BYTES || key[separatorAt] != SEPARATOR) {
            return Optional.empty();
        }
        return Optional.of(new String(Arrays.copyOfRange(key, SALT_BYTES, separatorAt), StandardCharsets.UTF_8));
    }
}
