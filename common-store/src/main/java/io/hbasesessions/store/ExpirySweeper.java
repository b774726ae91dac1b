package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One node's share of ending idle sessions for their events ({@code expiryEvents}). Each due bucket is
 * claimed with a lease, so one sweeper works on it at a time across the fleet; a sweeper that dies leaves
 * it to another once the lease times out. Each session a bucket names is read and, if it is over, deleted
 * on the condition that its version has not moved: a session a request touched meanwhile stays, and of two
 * sweepers that raced past a lease only one deletes it. Only the sweeper whose delete held returns it.
 */
final class ExpirySweeper {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    /** Buckets of one salt taken per sweep: a backlog (the fleet was down) drains over a few sweeps. */
    private static final int BUCKETS_PER_SALT = 8;
    /** Sessions read in one batch. */
    private static final int READ_BATCH = 100;

    /** Makes the working copy of a session the sweeper ended, for the adapter to fire its events with. */
    interface EndedSessions {
        StoredSession of(String sessionId, SessionKey key, SessionRow row);
    }

    /** What a sweep works with. */
    record Collaborators(ExpiryIndex index, ExpiryTracking tracking, SessionRows rows, UserIndex users,
            ExpiryPolicy expiry, Clock clock, LiveCounters counters, Supplier<Deadline> deadlines) {
    }

    private final Collaborators with;
    private final String keyScope;
    private final Predicate<StoredState> sessionHere;
    private final Duration leaseTimeout;
    private final EndedSessions endedSessions;

    /** @param sessionHere which rows are sessions of this store's system: another system's are left to its own sweepers */
    ExpirySweeper(Collaborators with, String keyScope, Predicate<StoredState> sessionHere, Duration leaseTimeout,
            EndedSessions endedSessions) {
        this.with = with;
        this.keyScope = keyScope;
        this.sessionHere = sessionHere;
        this.leaseTimeout = leaseTimeout;
        this.endedSessions = endedSessions;
    }

    /**
     * Sweeps the buckets due now and returns the sessions this sweep ended, already deleted. Work stops
     * when half the lease has been used, so that no lease runs out while its sweeper still works.
     *
     * @throws StoreUnavailableException if HBase fails before this sweep ended any session; a failure
     *     after that ends the sweep and is logged, so that no ended session goes without its events
     */
    List<StoredSession> sweep() {
        long stopAt = System.nanoTime() + leaseTimeout.toNanos() / 2;
        List<StoredSession> ended = new ArrayList<>();
        try {
            for (ExpiryIndex.Bucket bucket : with.index().dueBuckets(with.clock().instant(), BUCKETS_PER_SALT,
                    with.deadlines().get())) {
                if (System.nanoTime() - stopAt > 0) {
                    break;
                }
                sweep(bucket, stopAt, ended);
            }
        } catch (StoreUnavailableException e) {
            if (ended.isEmpty()) {
                throw e;
            }
            LOG.log(Level.WARNING, "An expiry sweep stopped after ending {0} sessions: {1}", ended.size(),
                    e.getMessage());
        }
        return ended;
    }

    private void sweep(ExpiryIndex.Bucket bucket, long stopAt, List<StoredSession> ended) {
        String lease = UUID.randomUUID().toString();
        if (!with.index().claim(bucket, lease, leaseTimeout, with.deadlines().get())) {
            return;
        }
        with.counters().increment(StoreCounter.EXPIRY_BUCKETS_SWEPT);
        List<ExpiryIndex.Entry> done = new ArrayList<>();
        try {
            List<ExpiryIndex.Entry> entries = bucket.entries();
            for (int from = 0; from < entries.size() && System.nanoTime() - stopAt < 0; from += READ_BATCH) {
                sweep(entries.subList(from, Math.min(entries.size(), from + READ_BATCH)), done, ended);
            }
        } finally {
            with.index().finish(bucket, lease, done, with.deadlines().get());
        }
    }

    /** Ends the over sessions among {@code entries}; an entry is done unless its session changed under the sweep. */
    private void sweep(List<ExpiryIndex.Entry> entries, List<ExpiryIndex.Entry> done, List<StoredSession> ended) {
        List<ExpiryIndex.Entry> named = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (ExpiryIndex.Entry entry : entries) {
            Optional<String> id = with.tracking().idOf(entry, keyScope);
            if (id.isPresent()) {
                named.add(entry);
                ids.add(id.get());
            } else {
                with.counters().increment(StoreCounter.EXPIRY_ENTRIES_REFUSED);
                done.add(entry);
            }
        }
        if (named.isEmpty()) {
            return;
        }
        Deadline deadline = with.deadlines().get();
        List<Optional<SessionRow>> rows = with.rows().readAll(named.stream().map(ExpiryIndex.Entry::session).toList(),
                deadline);
        Instant now = with.clock().instant();
        for (int i = 0; i < named.size(); i++) {
            ExpiryIndex.Entry entry = named.get(i);
            Optional<SessionRow> row = rows.get(i);
            // Gone (invalidated, revoked, moved to a new id) or live (its end moved into a later bucket). An
            // ended session of another session system stays, with its entry, for that system's sweepers.
            if (row.isEmpty() || !with.expiry().isOverAt(row.get().state(), now)) {
                done.add(entry);
            } else if (sessionHere.test(row.get().state()) && with.rows().end(entry.session(), row.get(), deadline)) {
                ended.add(endedSessions.of(ids.get(i), entry.session(), row.get()));
                done.add(entry);
                with.counters().increment(StoreCounter.EXPIRED_BY_SWEEP);
                // After the session is counted as ended: an entry left by a failure here is one readers skip.
                StoredState state = row.get().state();
                state.indexedUser().ifPresent(user -> with.users().remove(
                        new UserIndex.Entry(user, state.creationTime(), entry.session()), deadline));
            }
        }
    }
}
