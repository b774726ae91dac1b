package io.hbasesessions.store;

import java.util.List;

/**
 * What {@code hbase-sessions revoke} ended: the live sessions "log out everywhere" found for the user
 * just before it deleted them, and how many it deleted ({@link SessionStore#revokeAll}).
 */
public record Revocation(String user, List<IndexedSession> sessions, int revoked) {

    public Revocation {
        sessions = List.copyOf(sessions);
    }
}
