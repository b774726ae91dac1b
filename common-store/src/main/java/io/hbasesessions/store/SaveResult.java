package io.hbasesessions.store;

/** What a {@link SessionStore#save} did. A conflict that was merged is a result, not an exception. */
public enum SaveResult {
    /** Nothing changed and the last access was recent enough (or the session is transient): no write. */
    UNCHANGED,
    /** Only the access time (and the expiry it drives) was rewritten. */
    TOUCHED,
    /** The session was stored, or its changes written over the version that was read. */
    WRITTEN,
    /** Another writer got in first; this request's changes were applied on top of its state. */
    MERGED,
    /** The session was deleted or ended meanwhile; it was not brought back. */
    GONE;

    public boolean wroteSomething() {
        return this == TOUCHED || this == WRITTEN || this == MERGED;
    }
}
