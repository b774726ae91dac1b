package io.hbasesessions.store;

/** {@link SessionStore#create} or {@link SessionStore#changeId} found a live session under that id. */
public class SessionAlreadyExistsException extends SessionStoreException {
    public SessionAlreadyExistsException(String sessionKeyHex) {
        super("A session with this id already exists in this scope", sessionKeyHex, null);
    }
}
