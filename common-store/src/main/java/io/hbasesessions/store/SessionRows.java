package io.hbasesessions.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The sessions table as the store's rules see it: one row per session, its state and version cells
 * written together, every change under a condition. Losing a race is an answer ({@code false}), not
 * an error; a call HBase does not answer within the deadline throws {@link StoreUnavailableException}.
 *
 * <p>A session is never deleted: its row is overwritten with an end marker at the next version, which
 * every read treats as no session. A delete marker would hide a create of the same row in the same
 * millisecond, and the table option that prevents that ({@code NEW_VERSION_BEHAVIOR}) makes every check
 * of a row step over all its versions since the last major compaction. A marker's version is one more than
 * the session's, so no writer holding the session can write over it, and it lives as long as the session's
 * cells would have (their TTL never shrinks from one write to the next), longer than any cell it hides. A session created over a marker has no cell TTL either: once a flush keeps
 * only the newest version of the row, older cells it no longer masks may still sit in older files, and they
 * must not outlive it.
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

    /** Writes a new session into a row that holds nothing (never written, or every cell expired); false otherwise. */
    boolean insert(SessionKey key, RowWrite write, Deadline deadline);

    /** Writes a new session over the end marker of a session that ended in the row; false if it holds anything else. */
    boolean insertOverEnd(SessionKey key, RowWrite write, Deadline deadline);

    /** Writes over exactly {@code expectedVersion}; false if another write got in first or the row is gone. */
    boolean replace(SessionKey key, long expectedVersion, RowWrite write, Deadline deadline);

    /**
     * Writes over exactly {@code expectedVersion} while holding the lease {@code leaseToken}, and gives
     * the lease back in the same write; false if either no longer holds.
     */
    boolean replaceUnderLease(SessionKey key, long expectedVersion, String leaseToken, RowWrite write, Deadline deadline);

    /**
     * Ends {@code session} if the row is still at its version: an end marker at the next version, with the session's
     * cell TTL (which no earlier write of it exceeded: the marker outlives every cell it hides), the lease given
     * back; false if another write got in first or the session already ended.
     */
    boolean end(SessionKey key, SessionRow session, Deadline deadline);

    /**
     * Ends each session still at its version, in one batch; returns the keys of those that changed meanwhile
     * (written again, or already ended), in the order given.
     */
    List<SessionKey> endAll(List<Ending> endings, Deadline deadline);

    /** A session to end, as it was read. */
    record Ending(SessionKey key, SessionRow session) {
    }

    /**
     * Ends whatever unreadable cells the row holds (a {@link CorruptSessionDataException} on read), as long as
     * its version cell holds what it held a moment ago; false if the row kept changing.
     */
    boolean endUnreadable(SessionKey key, Deadline deadline);

    /** Takes the row's lease if it is free (missing, expired or given back); false if another holds it. */
    boolean takeLease(SessionKey key, String leaseToken, Duration leaseTimeout, Deadline deadline);

    /** Gives the lease back if it is still ours. */
    void dropLease(SessionKey key, String leaseToken, Deadline deadline);
}
