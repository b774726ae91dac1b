package io.hbasesessions.store;

/** How concurrent requests on one session are kept from losing each other's updates. */
public enum LockingMode {
    /** Versioned conditional writes; on conflict this request's attribute changes are merged and retried. */
    OPTIMISTIC,
    /** A lease per session serialises requests across nodes; for apps that change one attribute in parallel requests. */
    PESSIMISTIC,
    /** Unconditional writes: the last request to finish wins the whole session. */
    NONE;

    /**
     * Whether every load takes a lease that only the next save (or a release) gives back: a caller that looks sessions
     * up without saving them (Spring Session's registries) cannot use this mode.
     */
    public boolean leasesEveryLoad() {
        return this == PESSIMISTIC;
    }
}
