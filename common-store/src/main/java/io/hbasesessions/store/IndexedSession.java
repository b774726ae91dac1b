package io.hbasesessions.store;

import java.time.Instant;

/**
 * A session found through the principal index. The raw id is never stored, so a session is named by
 * its row key ({@code sessionKeyHex}, the SHA-256 of scope and id).
 */
public record IndexedSession(String principal, String sessionKeyHex, Instant creationTime) {
}
