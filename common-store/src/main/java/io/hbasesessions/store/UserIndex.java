package io.hbasesessions.store;

import java.time.Instant;
import java.util.List;

/**
 * Which sessions a user has, in every key scope: the {@code user_sessions} table as the store's rules
 * see it. Entries may dangle (a crash between the entry and the session write, a session that ended):
 * readers check the session row.
 */
interface UserIndex {

    /** One session of a user, as the index names it. */
    record Entry(String user, Instant creationTime, SessionKey session) {
    }

    void add(Entry entry, Deadline deadline);

    void remove(Entry entry, Deadline deadline);

    /** Every entry of exactly this user, newest first. */
    List<Entry> entries(String user, Deadline deadline);

    void removeAll(List<Entry> entries, Deadline deadline);
}
