package io.hbasesessions.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Optional;

/**
 * The row key of a session: SHA-256 of {@code keyScope + "\n" + sessionId}. The id is a bearer token,
 * so only this hash reaches HBase, and only a short prefix of its hex reaches logs and exceptions.
 */
final class SessionKey {

    static final int ROW_BYTES = 32;
    private static final int SHORT_HEX_CHARS = 12;
    private static final MessageDigest SHA_256 = sha256Instance();

    private final byte[] row;

    private SessionKey(byte[] row) {
        this.row = row;
    }

    /** The key of a session to look up; empty for an id no session can have (see {@link SessionIds#isValid}). */
    static Optional<SessionKey> forLookup(String keyScope, String sessionId) {
        return SessionIds.isValid(sessionId) ? Optional.of(hash(keyScope, sessionId)) : Optional.empty();
    }

    /** The key of a session about to be written. */
    static SessionKey forNewSession(String keyScope, String sessionId) {
        if (!SessionIds.isValid(sessionId)) {
            throw new IllegalArgumentException("A session id must be 1 to " + SessionIds.MAX_ID_CHARS
                    + " letters, digits or _ + / = -");
        }
        return hash(keyScope, sessionId);
    }

    /** A key read back from HBase (a user index qualifier). */
    static Optional<SessionKey> fromRow(byte[] row) {
        return row.length == ROW_BYTES ? Optional.of(new SessionKey(row.clone())) : Optional.empty();
    }

    private static SessionKey hash(String keyScope, String sessionId) {
        return new SessionKey(sha256((keyScope + "\n" + sessionId).getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] sha256(byte[] bytes) {
        return newSha256().digest(bytes);
    }

    /** A copy of one digest made at start: {@code getInstance} looks the provider up reflectively on every call. */
    private static MessageDigest newSha256() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            return sha256Instance();
        }
    }

    private static MessageDigest sha256Instance() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides SHA-256", e);
        }
    }

    byte[] row() {
        return row.clone();
    }

    /** The whole key in hex: names the row exactly (e.g. in {@link IndexedSession}). */
    String hex() {
        return HexFormat.of().formatHex(row);
    }

    /** What logs and exceptions show: enough to find the row, never the id. */
    String shortHex() {
        return hex().substring(0, SHORT_HEX_CHARS);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SessionKey that && Arrays.equals(row, that.row);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(row);
    }

    @Override
    public String toString() {
        return shortHex();
    }
}
