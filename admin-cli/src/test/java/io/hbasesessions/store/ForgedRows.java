package io.hbasesessions.store;

import io.hbasesessions.store.codec.ForgedKryo;
import io.hbasesessions.store.codec.HostileValueTest;
import io.hbasesessions.store.codec.SessionCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.client.Delete;

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
        ForgedState.putState(hbase, table, keyScope, sessionId,
                "\u0000not a session\nDROP TABLE".getBytes(StandardCharsets.UTF_8));
    }

    /**
     * A well-formed session whose attribute {@code "claim"} is a Kryo byte array claiming 2 GB, beside an
     * ordinary {@code "user"} attribute: the store refuses the claim before allocating it.
     */
    public static void sessionWithAHostileAttribute(HBaseInspector hbase, String table, String keyScope,
            String sessionId) {
        SessionCodec kryo = SessionCodec.of(SerializerKind.KRYO, ForgedRows.class.getClassLoader());
        byte[] state = ForgedState.stateCell(sessionId, Map.of("user", kryo.encode("alice"),
                "claim", HostileValueTest.kryoClaim(kryo.encode(new byte[] {1, 2, 3}), 0)));
        ForgedState.putState(hbase, table, keyScope, sessionId, state);
    }

    /**
     * A well-formed session whose attribute {@code "cart"} is a gadget chain of the Commons Collections 4 the HBase
     * client carries relocated (see {@link RelocatedGadgets#priorityQueue}), beside an ordinary {@code "user"}:
     * decoding the cart runs {@code touch marker}.
     */
    public static void sessionWithAGadgetChain(HBaseInspector hbase, String table, String keyScope, String sessionId,
            Path marker) {
        byte[] state = ForgedState.stateCell(sessionId, Map.of("user", SessionCodec.of(SerializerKind.KRYO,
                ForgedRows.class.getClassLoader()).encode("alice"), "cart",
                ForgedKryo.encode(RelocatedGadgets.priorityQueue(marker))));
        ForgedState.putState(hbase, table, keyScope, sessionId, state);
    }

    /** A well-formed session whose login name and one attribute's name are {@code text}, which a forger chose. */
    public static void sessionWithTextsOfTheForgersChoosing(HBaseInspector hbase, String table, String keyScope,
            String sessionId, String text) {
        StoredState state = StoredState.newSession(SerializerKind.KRYO, SessionRecord.created(sessionId, Instant.now(),
                        Duration.ofMinutes(30)).withLogin(new SessionPrincipal(text, List.of(), "FORM"))).toBuilder()
                .attribute(text, SessionCodec.of(SerializerKind.KRYO, ForgedRows.class.getClassLoader()).encode(text))
                .build();
        ForgedState.putState(hbase, table, keyScope, sessionId, state.toBytes());
    }

    /** Deletes a session row and nothing else, as a crash between a row delete and its index delete leaves it. */
    public static void deleteRowOnly(HBaseInspector hbase, String table, String keyScope, String sessionId) {
        hbase.delete(table, new Delete(TestStores.rowKey(keyScope, sessionId)));
    }
}
