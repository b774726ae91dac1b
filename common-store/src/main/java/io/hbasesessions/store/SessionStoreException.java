package io.hbasesessions.store;

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
}
