package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/** Session rows as someone who can write the sessions table writes them, past any store (unprotected cells). */
public final class ForgedState {

    private ForgedState() {
    }

    /**
     * The state cell of a session of {@code sessionId} created now, with a 30-minute idle timeout and
     * {@code attributes} (name to the bytes of its value, in the Kryo format) as they are.
     */
    public static byte[] stateCell(String sessionId, Map<String, byte[]> attributes) {
        StoredState.Builder state = StoredState.newSession(SerializerKind.KRYO,
                SessionRecord.created(sessionId, Instant.now(), Duration.ofMinutes(30))).toBuilder();
        attributes.forEach(state::attribute);
        return state.build().toBytes();
    }

    /** Writes {@code stateCell} as the session of {@code sessionId} in {@code keyScope}, at version 1. */
    public static void putState(HBaseInspector hbase, String table, String keyScope, String sessionId, byte[] stateCell) {
        hbase.put(table, new Put(SessionKey.forNewSession(keyScope, sessionId).row())
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE, stateCell)
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION, Bytes.toBytes(1L)));
    }

    /**
     * Sets attribute {@code name} of the stored session of {@code sessionId} (an unprotected cell, as a node with
     * {@code stateProtection=none} writes it) to {@code value}, leaving the rest of the session, its login and its
     * version as they are.
     */
    public static void addAttribute(HBaseInspector hbase, String table, String keyScope, String sessionId, String name,
            byte[] value) {
        byte[] row = SessionKey.forNewSession(keyScope, sessionId).row();
        byte[] stored = hbase.row(table, row).getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE);
        if (stored == null) {
            throw new IllegalStateException("No session of that id is stored in " + table + " under " + keyScope);
        }
        byte[] forged = StoredState.parse(stored).toBuilder().attribute(name, value).build().toBytes();
        hbase.put(table, new Put(row).addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE, forged));
    }
}
