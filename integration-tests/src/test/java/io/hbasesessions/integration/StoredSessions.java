package io.hbasesessions.integration;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The sessions a container stored in HBase's default tables under one key scope, read with the store's own code. */
final class StoredSessions implements AutoCloseable {

    private final String keyScope;
    private final SessionStore store;

    StoredSessions(EmbeddedHBase hbase, String keyScope) {
        this.keyScope = keyScope;
        store = SessionStores.open(StoreSettings.builder()
                .zookeeperQuorum(hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort())
                .keyScope(keyScope)
                .build());
    }

    boolean exists(String sessionId) {
        return store.exists(sessionId);
    }

    /** The stored session's version: how many times it was written. */
    long version(String sessionId) {
        return store.load(sessionId).orElseThrow().version();
    }

    /** Whether the principal index lists this session under {@code principal} ("log out everywhere" finds it). */
    boolean isIndexedUnder(String principal, String sessionId) {
        String rowKey = rowKeyHex(sessionId);
        return store.findByPrincipal(principal).stream().anyMatch(session -> session.sessionKeyHex().equals(rowKey));
    }

    /** DESIGN.md's row key: SHA-256 of {@code keyScope + "\n" + sessionId}. */
    private String rowKeyHex(String sessionId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256")
                    .digest((keyScope + "\n" + sessionId).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides SHA-256", e);
        }
    }

    @Override
    public void close() {
        store.close();
    }
}
