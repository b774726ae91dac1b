package io.hbasesessions.store;

/**
 * In pessimistic locking mode, another request changed an attribute this request changed too, while
 * this one no longer held the session's lease (it outlasted {@code leaseTimeoutSeconds}). Neither
 * change can be kept without losing the other, so this request's save fails; the stored session
 * keeps the other request's change.
 */
public class SessionConflictException extends SessionStoreException {
    public SessionConflictException(String sessionKeyHex) {
        super("Another request changed the same attributes after this request's lease ran out "
                + "(leaseTimeoutSeconds); this request's changes were not saved", sessionKeyHex, null);
    }
}
