package io.hbasesessions.store;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

/** Rows written past the store, as a forger or a damaged disk would leave them, for the admin command line's tests. */
public final class ForgedRows {

    private ForgedRows() {
    }

    /** The row key of a session, in hex: what {@code --key-hash} takes. */
    public static String rowKeyHex(String keyScope, String sessionId) {
        return HexFormat.of().formatHex(TestStores.rowKey(keyScope, sessionId));
    }

    /** A state cell that is no session state at all, under a well-formed version cell. */
    public static void garbageState(HBaseInspector hbase, String table, String keyScope, String sessionId) {
        hbase.put(table, new Put(TestStores.rowKey(keyScope, sessionId))
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE,
                        "\u0000not a session\nDROP TABLE".getBytes(StandardCharsets.UTF_8))
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION, Bytes.toBytes(1L)));
    }

    /**
     * A well-formed session whose attribute {@code "claim"} is a Kryo byte array claiming 2 GB, beside an
     * ordinary {@code "user"} attribute: the store refuses the claim before allocating it.
     */
    public static void sessionWithAHostileAttribute(HBaseInspector hbase, String table, String keyScope,
            String sessionId) {
        SessionCodec kryo = SessionCodec.of(SerializerKind.KRYO, ForgedRows.class.getClassLoader());
        StoredState state = StoredState.newSession(SerializerKind.KRYO,
                SessionRecord.created(sessionId, Instant.now(), Duration.ofMinutes(30))).toBuilder()
                .attribute("user", kryo.encode("alice"))
                .attribute("claim", HostileValueTest.kryoClaim(kryo.encode(new byte[] {1, 2, 3}), 0))
                .build();
        hbase.put(table, new Put(TestStores.rowKey(keyScope, sessionId))
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE, state.toBytes())
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION, Bytes.toBytes(1L)));
    }

    /** Deletes a session row and nothing else, as a crash between a row delete and its index delete leaves it. */
    public static void deleteRowOnly(HBaseInspector hbase, String table, String keyScope, String sessionId) {
        hbase.delete(table, new Delete(TestStores.rowKey(keyScope, sessionId)));
    }
}
