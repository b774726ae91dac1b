package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The expiry index of one key scope ({@code expiryEvents}) as the store's rules see it: time buckets, each
 * naming the sessions whose end fell in it when they were written. An entry is never deleted when its
 * session's end moves on (that would cost a delete per touch): the session's newer write enters it in
 * its new bucket, and a sweeper that finds the old entry reads the session and skips it.
 */
interface ExpiryIndex {

    /** A session as a bucket names it, with its id sealed ({@code stateProtection}) for the events. */
    record Entry(SessionKey session, byte[] sealedId) {
    }

    /** One bucket: every session in it ends before {@code due}. {@code row} names it in the index. */
    record Bucket(byte[] row, Instant due, List<Entry> entries) {
    }

    /** Enters a session in the bucket that is due at {@code due}. */
    void add(Instant due, Entry entry, WriteDurability durability, Deadline deadline);

    /** Buckets due at or before {@code now} that no sweeper holds, at most {@code limit} of each salt. */
    List<Bucket> dueBuckets(Instant now, int limit, Deadline deadline);

    /** Takes the bucket's lease, free again after {@code leaseTimeout}; false if another sweeper holds it. */
    boolean claim(Bucket bucket, String leaseToken, Duration leaseTimeout, Deadline deadline);

    /** Removes the entries that are done and gives the lease back, if the lease is still ours. */
    void finish(Bucket bucket, String leaseToken, List<Entry> done, Deadline deadline);
}
