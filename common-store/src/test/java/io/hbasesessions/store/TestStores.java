package io.hbasesessions.store;

import io.hbasesessions.embedded.LocalHBase;
import io.hbasesessions.embedded.TestNamespace;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
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
    public static StoreSettings.Builder settings(LocalHBase hbase, TestNamespace namespace) {
        return StoreSettings.builder()
                .set(Setting.ZOOKEEPER_QUORUM, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort())
                .set(Setting.TABLE, namespace.table("sessions"))
                .set(Setting.INDEX_TABLE, namespace.table("user_sessions"))
                .set(Setting.KEY_SCOPE, "/shop")
                .set(Setting.REGIONS, 2);
    }

    /** The web application of the store tests: this test classpath, no container. */
    public static final Webapp WEBAPP = new Webapp(TestStores.class.getClassLoader(), Container.NONE);

    public static SessionStore open(StoreSettings settings) {
        return SessionStores.open(settings, WEBAPP);
    }

    public static SessionStore open(StoreSettings settings, Clock clock) {
        return SessionStores.open(settings, WEBAPP, clock);
    }

    /**
     * Stores a new session created now with {@code attributes}, as an adapter does at the end of the
     * request that created it.
     */
    public static StoredSession create(SessionStore store, Instant now, Duration maxInactive, Map<String, ?> attributes) {
        StoredSession session = store.newSession(SessionRecord.created(newId(), now, maxInactive), false);
        session.attributes().putAll(attributes);
        store.save(session, session.record());
        return session;
    }

    /** The attributes of a session, decoded: what an application would see. */
    public static Map<String, Object> attributesOf(StoredSession session) {
        Map<String, Object> attributes = new TreeMap<>();
        session.attributes().forEach(attributes::put);
        return attributes;
    }

    /** A random id shaped like a container's: 32 hex characters, distinctive enough to search stored bytes for. */
    public static String newId() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }

    static SessionStore open(StoreSettings settings, Clock clock, MutationRecorder recorder) {
        return HBaseSessions.open(settings, WEBAPP, clock, recorder);
    }

    /** The row key the store uses for an id: tests look at rows without ever storing the id. */
    static byte[] rowKey(String keyScope, String sessionId) {
        return SessionKey.forNewSession(keyScope, sessionId).row();
    }
}
