package io.hbasesessions.store;

import java.util.UUID;

/**
 * Pessimistic locking: one lease cell per session row, taken with a conditional write, so requests on
 * one session run one at a time across all nodes. A holder that dies loses the lease by its cell TTL.
 */
final class SessionLeases {

    private final SessionTable table;
    private final Backoff backoff = new Backoff(2, 50);

    SessionLeases(SessionTable table) {
        this.table = table;
    }

    /**
     * Waits for the session's lease and returns its token.
     *
     * @throws StoreUnavailableException if another request holds it past the deadline
     */
    String acquire(SessionKey key, Deadline deadline) {
        String token = UUID.randomUUID().toString();
        for (int attempt = 1; !table.takeLease(key, token, deadline); attempt++) {
            if (!backoff.pauseBefore(attempt, deadline)) {
                throw new StoreUnavailableException("Another request held this session's lease for longer than "
                        + "operationTimeoutMillis=" + deadline.budgetMillis() + "; a lease is given back when its "
                        + "request saves, or after " + SessionTable.LEASE_TTL.toSeconds() + " s if its node died",
                        key.shortHex(), null);
            }
        }
        return token;
    }

    void release(SessionKey key, String token, Deadline deadline) {
        table.dropLease(key, token, deadline);
    }
}
