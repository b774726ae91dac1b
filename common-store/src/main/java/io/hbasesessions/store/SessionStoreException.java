package io.hbasesessions.store;

import java.util.Optional;

/**
 * The root of the store's exceptions. Carries the session's key hash (a prefix of the row key in
 * hex), never the session id itself, which is a bearer token.
 */
public class SessionStoreException extends RuntimeException {

    private final String sessionKeyHex;

    public SessionStoreException(String message, String sessionKeyHex, Throwable cause) {
        super(sessionKeyHex == null ? message : message + " [session " + sessionKeyHex + "]", cause);
        this.sessionKeyHex = sessionKeyHex;
    }

    /** The hex of the session's row key (safe to log), or {@code null} when no session is involved. */
    public String sessionKeyHex() {
        return sessionKeyHex;
    }

    /** The store's failure among {@code thrown} and its causes (a container or framework may have wrapped it). */
    public static Optional<SessionStoreException> in(Throwable thrown) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof SessionStoreException storeFailure) {
                return Optional.of(storeFailure);
            }
        }
        return Optional.empty();
    }
}
