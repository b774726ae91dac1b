package io.hbasesessions.store;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;

/** Settings and ids for store tests against the harness's HBase. */
public final class TestStores {

    public static final Instant START = Instant.parse("2026-11-30T10:00:00Z");
    private static final SecureRandom RANDOM = new SecureRandom();

    private TestStores() {
    }

    /**
     * The sessions and index tables of the test class's namespace, 2 regions each (creation is quicker
     * than with 16; the schema test checks the 16-region default).
     */
    public static StoreSettings.Builder settings(EmbeddedHBase hbase, TestNamespace namespace) {
        return StoreSettings.builder()
                .zookeeperQuorum(hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort())
                .table(namespace.table("sessions"))
                .indexTable(namespace.table("user_sessions"))
                .keyScope("/shop")
                .regions(2);
    }

    /** A random id shaped like a container's: 32 hex characters, distinctive enough to search stored bytes for. */
    public static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }

    static HBaseSessionStore open(StoreSettings settings, Clock clock, MutationRecorder recorder) {
        return HBaseSessionStore.open(settings, clock, recorder);
    }

    /** The row key the store uses for an id: tests look at rows without ever storing the id. */
    static byte[] rowKey(String keyScope, String sessionId) {
        return SessionKey.forNewSession(keyScope, sessionId).row();
    }
}
