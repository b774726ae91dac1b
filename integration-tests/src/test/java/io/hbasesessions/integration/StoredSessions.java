package io.hbasesessions.integration;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.IndexedSession;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.Webapp;
import io.hbasesessions.embedded.TestNamespace;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/** The sessions the nodes stored in HBase under one key scope, read with the store's own code. */
final class StoredSessions implements AutoCloseable {

    private final String keyScope;
    private final SessionStore store;

    /**
     * The store of {@code settings} (by configuration name), as the nodes use it; without a
     * {@code keyScope}, the nodes' default: their context path.
     */
    StoredSessions(Map<String, String> settings) {
        StoreSettings.Builder builder = StoreSettings.builder().defaultKeyScope(TestNodes.CONTEXT_PATH);
        settings.forEach(builder::set);
        StoreSettings built = builder.build();
        this.keyScope = built.get(Setting.KEY_SCOPE);
        this.store = SessionStores.open(built, new Webapp(StoredSessions.class.getClassLoader(), Container.NONE));
    }

    /** HBase's default tables under {@code keyScope}, their cells protected with the keys of {@code stateKeyFile}. */
    StoredSessions(EmbeddedHBase hbase, String keyScope, Path stateKeyFile) {
        this(Map.of("zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort(), "keyScope", keyScope,
                "stateProtection", "hmac", "stateKeyFile", stateKeyFile.toString()));
    }

    /** Whether a live session has this id (a route suffix is not part of it). */
    boolean exists(String sessionId) {
        return store.liveAmong(List.of(sessionId)).contains(sessionId);
    }

    List<IndexedSession> findByUser(String user) {
        return store.findByUser(user);
    }

    /** Whether the user index lists this session under {@code user} ("log out everywhere" finds it). */
    boolean isIndexedUnder(String user, String sessionId) {
        String rowKey = rowKeyHex(sessionId);
        return findByUser(user).stream().anyMatch(session -> session.sessionKeyHex().equals(rowKey));
    }

    private String rowKeyHex(String sessionId) {
        return HexFormat.of().formatHex(rowKey(sessionId));
    }

    byte[] rowKey(String sessionId) {
        return rowKey(keyScope, sessionId);
    }

    /** DESIGN.md's row key: SHA-256 of {@code keyScope + "\n" + sessionId}. */
    static byte[] rowKey(String keyScope, String sessionId) {
        try {
            return MessageDigest.getInstance("SHA-256").digest((keyScope + "\n" + sessionId).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides SHA-256", e);
        }
    }

    /**
     * The adapter contract's no-password-at-rest rule over HTTP: no cell of the default sessions tables holds
     * {@code secret} (a password, a session id), in UTF-8 or UTF-16 (all but its last character: Kryo marks the
     * end of an ASCII string in its last byte).
     */
    static void assertStoredNowhere(Configuration client, String secret, String what) {
        String searched = secret.substring(0, secret.length() - 1);
        for (Charset encoding : List.of(StandardCharsets.UTF_8, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16LE)) {
            if (TestNamespace.anyCellHolds(client, List.of("sessions", "user_sessions"), searched.getBytes(encoding))) {
                throw new AssertionError("a cell holds " + what + " in " + encoding);
            }
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
