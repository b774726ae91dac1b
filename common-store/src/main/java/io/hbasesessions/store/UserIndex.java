package io.hbasesessions.store;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which sessions a user has, in every key scope: the {@code user_sessions} table as the store's rules
 * see it. Entries may dangle (a crash between the entry and the session write, a session that ended):
 * readers check the session row.
 */
interface UserIndex {

    /**
     * One session of a user, as the index names it.
     *
     * @param sealedId the session's id, sealed to its row, for stores whose callers need ids back
     *     ({@link IndexEntries}); empty for the others. Not part of the entry's identity.
     */
    record Entry(String user, Instant creationTime, SessionKey session, byte[] sealedId) {

        private static final byte[] NO_ID = new byte[0];

        Entry(String user, Instant creationTime, SessionKey session) {
            this(user, creationTime, session, NO_ID);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Entry entry && user.equals(entry.user) && creationTime.equals(entry.creationTime)
                    && session.equals(entry.session);
        }

        @Override
        public int hashCode() {
            return Objects.hash(user, creationTime, session);
        }

        @Override
        public String toString() {
            return "Entry[" + creationTime + ", " + session + "]";
        }
    }

    void add(Entry entry, Deadline deadline);

    void remove(Entry entry, Deadline deadline);

    /** Every entry of exactly this user, newest first. */
    List<Entry> entries(String user, Deadline deadline);

    void removeAll(List<Entry> entries, Deadline deadline);

    /**
     * One page of the whole index, every user, in key order: for sweeping dangling entries.
     *
     * @param entries the entries of the page's rows whose cells were written before {@code writtenBefore}
     * @param unparseableRows rows whose key is no entry this store wrote (left alone)
     * @param resumeAfter the last row of a full page, to pass as {@code after} for the next; empty after the last page
     */
    record Page(List<Entry> entries, long unparseableRows, Optional<byte[]> resumeAfter) {
    }

    /** At most {@code rows} rows after the row {@code after} (from the start when empty). */
    Page page(Optional<byte[]> after, int rows, Instant writtenBefore, Deadline deadline);
}
