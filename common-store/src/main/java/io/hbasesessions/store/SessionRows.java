package io.hbasesessions.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The sessions table as the store's rules see it: one row per session, its state and version cells
 * written together, every change under a condition. Losing a race is an answer ({@code false}), not
 * an error; a call HBase does not answer within the deadline throws {@link StoreUnavailableException}.
 */
interface SessionRows {

    /**
     * Reads the primary replica: for every read that decides a write.
     *
     * @throws CorruptSessionDataException if the row holds cells this store cannot read
     */
    Optional<SessionRow> read(SessionKey key, Deadline deadline);

    /**
     * For a load only: as {@link #read}, but with {@code timelineReads} a secondary replica may answer when
     * the primary has not within {@code timelineReadAfterMillis}; its row is {@linkplain SessionRow#stale()
     * stale}. A secondary may show a session, never its absence: a session newer than the secondary's copy
     * would look missing.
     *
     * @throws StoreUnavailableException if only a secondary answered and it holds no session
     * @throws CorruptSessionDataException if the row holds cells this store cannot read
     */
    Optional<SessionRow> readForLoad(SessionKey key, Deadline deadline);

    /** The rows of many sessions, in the order of {@code keys}; unreadable rows are empty. */
    List<Optional<SessionRow>> readAll(List<SessionKey> keys, Deadline deadline);

    /** Writes a new session; false if the row holds one already (live or not: the caller decides). */
    boolean insert(SessionKey key, RowWrite write, Deadline deadline);

    /** Writes over exactly {@code expectedVersion}; false if another write got in first or the row is gone. */
    boolean replace(SessionKey key, long expectedVersion, RowWrite write, Deadline deadline);

    /**
     * Writes over exactly {@code expectedVersion} while holding the lease {@code leaseToken}, and gives
     * the lease back in the same write; false if either no longer holds.
     */
    boolean replaceUnderLease(SessionKey key, long expectedVersion, String leaseToken, RowWrite write, Deadline deadline);

    /** Deletes the row if it is still at {@code expectedVersion}; false if it changed or is gone. */
    boolean delete(SessionKey key, long expectedVersion, Deadline deadline);

    /** Deletes whatever the row holds, lease included. */
    void delete(SessionKey key, Deadline deadline);

    void deleteAll(List<SessionKey> keys, Deadline deadline);

    /** Takes the row's lease if it is free (missing, expired or given back); false if another holds it. */
    boolean takeLease(SessionKey key, String leaseToken, Duration leaseTimeout, Deadline deadline);

    /** Gives the lease back if it is still ours. */
    void dropLease(SessionKey key, String leaseToken, Deadline deadline);
}
