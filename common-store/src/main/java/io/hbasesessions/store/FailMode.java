package io.hbasesessions.store;

/**
 * What a request gets when the store cannot be reached. One rule for every adapter: a request whose
 * changes could not be saved always gets {@link FailureResponse#to its failure response}, never a
 * success; the mode decides only about a request whose session could not be read.
 */
public enum FailMode {
    /** The request fails with 503; nothing stored is touched, and the client keeps its cookie. */
    ERROR,
    /**
     * The request goes on without its stored session; a session it creates is transient (never
     * stored, see {@link StoredSession#isTransient()}). The stored session is left as it was.
     */
    NEW_SESSION;

    /** Whether a request whose session could not be read goes on (without it) rather than failing. */
    public boolean continuesWithoutSession() {
        return this == NEW_SESSION;
    }
}
