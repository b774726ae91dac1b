package io.hbasesessions.store;

/**
 * The HTTP answer to a request the store failed, the same in every container. The message is for the
 * client: it names no class, key or id; the store's exception, with the session's key hash, goes to
 * the log.
 *
 * @param status the HTTP status code
 */
public record FailureResponse(int status, String message) {

    private static final FailureResponse UNAVAILABLE = new FailureResponse(503,
            "The session store is unavailable at the moment. Please retry shortly.");
    private static final FailureResponse NOT_SAVED = new FailureResponse(500,
            "Your session could not be saved.");
    private static final FailureResponse CONFLICT = new FailureResponse(503,
            "Your session was changed by another request at the same time. Please retry.");

    public static FailureResponse to(SessionStoreException failure) {
        if (failure instanceof StoreUnavailableException) {
            return UNAVAILABLE;
        }
        return failure instanceof SessionConflictException ? CONFLICT : NOT_SAVED;
    }

    /** Whether a client may retry the same request and expect it to work. */
    public boolean isRetryable() {
        return status == 503;
    }
}
