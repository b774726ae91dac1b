package io.hbasesessions.store;

import java.util.List;

/**
 * The sessions of one key scope changed lately by a node that was not their home ({@code stickySessions}): what
 * every node reads a few times a second to drop its copies that are no longer current. A change stays readable for
 * longer than the write it announces can take ({@link #retentionMillis}), so a copy read between the announcement
 * and the write is dropped again by a later read; applying a change is idempotent. A call HBase does not answer
 * within the deadline throws {@link StoreUnavailableException}.
 */
interface ChangeFeed {

    /** Twice the longest a write may take, and at least a minute. */
    static long retentionMillis(StoreSettings settings) {
        return Math.max(60_000, 2 * settings.get(Setting.OPERATION_TIMEOUT_MILLIS));
    }

    /** A session row changed: copies below {@code version} are no longer current ({@code Long.MAX_VALUE}: none is). */
    record Change(SessionKey key, long version, String publisher) {
    }

    /** Adds a change, before the write it announces. */
    void publish(Change change, Deadline deadline);

    /** Every change still kept. */
    List<Change> read(Deadline deadline);
}
