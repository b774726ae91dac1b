package io.hbasesessions.tomcat;

import io.hbasesessions.store.LoadedSession;

/**
 * One request's copy of a session held in HBase. It lives for that request only: loaded (or created)
 * when the request first asks for it, saved and dropped when the request ends.
 */
final class HBaseSession extends RecordSession {

    private final HBaseSessionManager sessionManager;
    /** The session as last read from or written to the store; null while it exists only in this request. */
    private volatile LoadedSession stored;

    HBaseSession(HBaseSessionManager manager) {
        super(manager);
        this.sessionManager = manager;
    }

    boolean isStored() {
        return stored != null;
    }

    LoadedSession stored() {
        return stored;
    }

    void stored(LoadedSession session) {
        this.stored = session;
    }

    /**
     * No idle expiry on a copy: it was accessed when its request began, and whether a stored session
     * has been idle too long is decided by the store when a request loads it, from the last access of
     * every node.
     */
    @Override
    public boolean isValid() {
        return isValidInternal();
    }

    /**
     * Invalidation deletes the stored session first: if HBase cannot be reached, the exception reaches
     * the application and the session is left valid here and everywhere, rather than gone only here.
     */
    @Override
    public void expire(boolean notify) {
        if (isValidInternal() && !expiring) {
            sessionManager.deleteStored(this);
        }
        super.expire(notify);
    }
}
