package io.hbasesessions.store;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@link SessionStore#save} of a stored session: writes its {@link SavePlan} under the locking
 * mode's condition and, when another writer got in first, applies the plan again on top of the newer
 * state until the write holds, the session turns out to be gone (it is never brought back), or the
 * operation's time is up. Saves of one row from this store take turns ({@link RowTurns}) and start from
 * what the save before them wrote, so only another node's write makes one re-read the row. The user index
 * entry of a new user is written before the session, the old user's is removed after it: a crash in between
 * leaves an entry that readers skip, never a session that "log out everywhere" cannot find.
 */
final class SaveOperation {

    private static final int MAX_MERGE_ATTEMPTS = 50;
    /**
     * Between merges of one save: short, because the saves of this row from this node wait in its turn meanwhile,
     * and a long pause only lets the other nodes' saves win again (issue #29: a 100 ms cap gave a p99 of seconds
     * with two nodes writing one session). At most one save per node contends for a row.
     */
    private static final Backoff BACKOFF = new Backoff(1, 10);

    /** What every save works with. */
    record Collaborators(SessionRows rows, UserIndex index, RowWrites writes, LiveCounters counters,
            ExpiryPolicy expiry, Clock clock, LockingMode lockingMode, ExpiryTracking tracking, RowTurns turns,
            IndexEntries entries) {
    }

    private final Collaborators with;
    private final StoredSession session;
    private final SavePlan plan;
    private final SessionKey key;
    private final Deadline deadline;
    /** The pessimistic lease this save gives back, until a write under it gave it back. */
    private String lease;

    SaveOperation(Collaborators with, StoredSession session, SavePlan plan, SessionKey key, Deadline deadline) {
        this.with = with;
        this.session = session;
        this.plan = plan;
        this.key = key;
        this.deadline = deadline;
    }

    SaveResult run() {
        lease = session.takeLeaseToken();
        try {
            switch (plan.kind()) {
                case NOTHING -> {
                    with.counters().increment(StoreCounter.UNCHANGED_SAVES);
                    return SaveResult.UNCHANGED;
                }
                case TOUCH_NOT_DUE -> {
                    with.counters().increment(StoreCounter.TOUCHES_SKIPPED);
                    return SaveResult.UNCHANGED;
                }
                default -> {
                    plan.newUser().ifPresent(user -> with.index().add(entry(user), deadline));
                    // Under a pessimistic lease this request is the row's only writer already.
                    SaveResult result = lease != null && with.lockingMode() == LockingMode.PESSIMISTIC ? underLease()
                            : with.turns().inTurn(key, deadline, this, SaveOperation::writeInTurn);
                    if (result != SaveResult.GONE) {
                        plan.previousUser().ifPresent(user -> with.index().remove(entry(user), deadline));
                    }
                    return result;
                }
            }
        } finally {
            if (lease != null) {
                giveBack(lease);
            }
        }
    }

    private SaveResult underLease() {
        RowWrite write = with.writes().of(plan.stateFromBase(), session.version() + 1, plan.durability(), key);
        Optional<SaveResult> written = attempt(write, session.state(),
                () -> with.rows().replaceUnderLease(key, session.version(), lease, write, deadline));
        if (written.isPresent()) {
            lease = null;
            return written.get();
        }
        with.counters().increment(StoreCounter.CONFLICTS);
        return afterConflict();
    }

    /**
     * The saves whose turn came, in one write when there are several ({@link RowTurns}); each completed. In
     * pessimistic mode (a save without a lease, which a load took) each goes alone, its collisions its own.
     */
    private static void writeInTurn(RowTurns.Turn turn, List<RowTurns.Waiting<SaveOperation>> saves) {
        if (saves.size() == 1 || saves.get(0).save().with.lockingMode() == LockingMode.PESSIMISTIC) {
            eachAlone(turn, saves);
        } else {
            saves.get(0).save().writeTogether(turn, saves);
        }
    }

    private static void eachAlone(RowTurns.Turn turn, List<RowTurns.Waiting<SaveOperation>> saves) {
        for (RowTurns.Waiting<SaveOperation> waiting : saves) {
            try {
                waiting.complete(waiting.save().inTurn(turn));
            } catch (RuntimeException e) {
                waiting.fail(e);
            }
        }
    }

    /** In the row's turn: from what this node wrote last, when that is newer than what the request loaded. */
    private SaveResult inTurn(RowTurns.Turn turn) {
        Optional<SessionRow> writtenHere = turn.writtenAfter(session.version());
        SaveResult result;
        if (writtenHere.isPresent()) {
            with.counters().increment(StoreCounter.CONFLICTS);
            result = onto(writtenHere.get()).orElseGet(this::afterConflict);
        } else {
            RowWrite write = with.writes().of(plan.stateFromBase(), session.version() + 1, plan.durability(), key);
            result = attempt(write, session.state(), () -> with.rows().replace(key, session.version(), write, deadline))
                    .orElseGet(() -> {
                        with.counters().increment(StoreCounter.CONFLICTS);
                        return afterConflict();
                    });
        }
        turn.written(result == SaveResult.GONE || result == SaveResult.UNCHANGED ? Optional.empty()
                : Optional.of(new SessionRow(session.state(), session.version(), false)));
        return result;
    }

    /**
     * This save (the first of {@code saves}) writes the changes of all of them in one write, in their order, on top
     * of the newest state this node knows, and on top of a newer one each time another node got in first. A copy read
     * from a secondary that is behind fails alone; when together they are too large to store, each is saved alone,
     * so that only the one that does not fit fails.
     */
    private void writeTogether(RowTurns.Turn turn, List<RowTurns.Waiting<SaveOperation>> saves) {
        SessionRow base = newest(turn, saves);
        List<RowTurns.Waiting<SaveOperation>> together = new ArrayList<>();
        for (RowTurns.Waiting<SaveOperation> waiting : saves) {
            SaveOperation save = waiting.save();
            if (save.session.isStale() && save.plan.kind() != SavePlan.Kind.TOUCH
                    && save.session.version() != base.version()) {
                waiting.fail(save.staleBase(base.version()));
            } else {
                together.add(waiting);
            }
        }
        if (together.isEmpty()) {
            return;
        }
        Optional<RowWrite> written;
        try {
            written = writeAllOnto(base, together);
            for (int attempt = 1; written.isEmpty(); attempt++) {
                Optional<SessionRow> newer = readLive();
                if (newer.isEmpty()) {
                    turn.written(Optional.empty());
                    together.forEach(waiting -> waiting.complete(SaveResult.GONE));
                    return;
                }
                base = newer.get();
                written = writeAllOnto(base, together);
                if (written.isEmpty()) {
                    with.counters().increment(StoreCounter.CONFLICT_RETRIES);
                    if (attempt >= MAX_MERGE_ATTEMPTS || !BACKOFF.pauseBefore(attempt, deadline)) {
                        throw gaveUp();
                    }
                }
            }
        } catch (SessionTooLargeException e) {
            eachAlone(turn, together);
            return;
        }
        RowWrite write = written.get();
        boolean touchesOnly = together.stream().allMatch(waiting -> waiting.save().plan.kind() == SavePlan.Kind.TOUCH);
        with.writes().count(touchesOnly ? StoreCounter.TOUCHES : StoreCounter.FULL_WRITES, write);
        for (int i = 0; i < together.size(); i++) {
            SaveOperation save = together.get(i).save();
            boolean othersWrote = i > 0 || save.session.version() != base.version();
            if (othersWrote) {
                with.counters().increment(StoreCounter.CONFLICTS);
            }
            save.session.written(write.state().record(save.plan.current().id()), write, save.plan.changes());
            together.get(i).complete(touchesOnly ? SaveResult.TOUCHED
                    : othersWrote && with.lockingMode() != LockingMode.NONE ? SaveResult.MERGED : SaveResult.WRITTEN);
        }
        turn.written(Optional.of(new SessionRow(write.state(), write.version(), false)));
    }

    /** The newest state this node knows of the row: what it wrote last, or the newest any of the saves loaded. */
    private static SessionRow newest(RowTurns.Turn turn, List<RowTurns.Waiting<SaveOperation>> saves) {
        SessionRow newest = null;
        for (RowTurns.Waiting<SaveOperation> waiting : saves) {
            StoredSession loaded = waiting.save().session;
            if (newest == null || loaded.version() > newest.version()) {
                newest = new SessionRow(loaded.state(), loaded.version(), false);
            }
        }
        return turn.writtenAfter(newest.version()).orElse(newest);
    }

    /** One write of every save's plan onto {@code base}, in order; empty if another write got in first. */
    private Optional<RowWrite> writeAllOnto(SessionRow base, List<RowTurns.Waiting<SaveOperation>> saves) {
        StoredState state = base.state();
        StoredState.Builder next = null;
        WriteDurability durability = null;
        for (RowTurns.Waiting<SaveOperation> waiting : saves) {
            SavePlan each = waiting.save().plan;
            // Locking mode none: the last writer wins the whole session.
            next = with.lockingMode() == LockingMode.NONE ? each.stateFromBase() : each.onto(state);
            state = next.build();
            durability = durability == null ? each.durability() : stronger(durability, each.durability());
        }
        RowWrite write = with.writes().of(next, base.version() + 1, durability, key);
        with.tracking().beforeWrite(key, plan.current().id(), base.state(), write.state(), durability, deadline);
        return with.rows().replace(key, base.version(), write, deadline) ? Optional.of(write) : Optional.empty();
    }

    /** The durability that loses no less than either: the table's default counts as SYNC_WAL, HBase's default. */
    private static WriteDurability stronger(WriteDurability one, WriteDurability other) {
        return strength(one) >= strength(other) ? one : other;
    }

    private static int strength(WriteDurability durability) {
        return switch (durability) {
            case ASYNC_WAL -> 0;
            case USE_DEFAULT, SYNC_WAL -> 1;
            case FSYNC_WAL -> 2;
        };
    }

    /** Writes {@code write}; empty if another write got in first. */
    private Optional<SaveResult> attempt(RowWrite write, StoredState replaced, ConditionalWrite conditional) {
        boolean held;
        try {
            with.tracking().beforeWrite(key, plan.current().id(), replaced, write.state(), plan.durability(), deadline);
            held = conditional.holds();
        } catch (StoreUnavailableException e) {
            if (plan.kind() == SavePlan.Kind.TOUCH && session.isStale()) {
                return Optional.of(touchDeferred());
            }
            throw e;
        }
        return held ? Optional.of(written(write, plan.kind() == SavePlan.Kind.TOUCH ? SaveResult.TOUCHED
                : SaveResult.WRITTEN)) : Optional.empty();
    }

    @FunctionalInterface
    private interface ConditionalWrite {
        boolean holds();
    }

    /**
     * A read-only request served from a secondary replica while the primary does not answer: its touch only
     * slides the expiry, which a later request reaching the primary does (touches are at most a tenth of the
     * idle timeout apart), so the request succeeds without it. Whether the primary took the write or not, the
     * copy keeps its version: the next save merges if it did.
     */
    private SaveResult touchDeferred() {
        with.counters().increment(StoreCounter.TOUCHES_DEFERRED);
        return SaveResult.UNCHANGED;
    }

    /**
     * After a write that found a newer version than the one it was based on: reads the row and merges onto it.
     * Never writes over a session that was deleted or ended meanwhile: invalidation wins.
     */
    private SaveResult afterConflict() {
        for (int attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
            Optional<SessionRow> newer = readLive();
            if (newer.isEmpty()) {
                return SaveResult.GONE;
            }
            Optional<SaveResult> written = onto(newer.get());
            if (written.isPresent()) {
                return written.get();
            }
            with.counters().increment(StoreCounter.CONFLICT_RETRIES);
            if (!BACKOFF.pauseBefore(attempt, deadline)) {
                break;
            }
        }
        throw gaveUp();
    }

    private StoreUnavailableException gaveUp() {
        return new StoreUnavailableException("Other writers kept changing this session; the save gave up within "
                + "operationTimeoutMillis=" + deadline.budgetMillis(), key.shortHex(), null);
    }

    /** Applies the plan onto {@code newer}, a state at least as new as the request's; empty if yet another write got in. */
    private Optional<SaveResult> onto(SessionRow newer) {
        long newerVersion = newer.version();
        boolean othersWrote = newerVersion != session.version();
        if (othersWrote && session.isStale() && plan.kind() != SavePlan.Kind.TOUCH) {
            throw staleBase(newerVersion);
        }
        if (othersWrote && with.lockingMode() == LockingMode.PESSIMISTIC && plan.collidesWith(newer.state())) {
            throw new SessionConflictException(key.shortHex());
        }
        // Locking mode none: the last writer wins the whole session, but only while it exists.
        StoredState.Builder next = with.lockingMode() == LockingMode.NONE ? plan.stateFromBase() : plan.onto(newer.state());
        RowWrite write = with.writes().of(next, newerVersion + 1, plan.durability(), key);
        with.tracking().beforeWrite(key, plan.current().id(), newer.state(), write.state(), plan.durability(), deadline);
        if (!with.rows().replace(key, newerVersion, write, deadline)) {
            return Optional.empty();
        }
        boolean merged = othersWrote && with.lockingMode() != LockingMode.NONE;
        return Optional.of(written(write, merged ? SaveResult.MERGED : SaveResult.WRITTEN));
    }

    /**
     * A copy read from a secondary that was behind: the request's changes may derive from values it never
     * saw (a counter read stale and incremented would undo an acknowledged write), so unlike a conflict
     * with a concurrent writer they are not merged. The request fails as if the primary had not answered.
     */
    private StoreUnavailableException staleBase(long primaryVersion) {
        with.counters().increment(StoreCounter.ERRORS);
        return new StoreUnavailableException("This request read the session from a secondary replica that was behind "
                + "the primary (version " + session.version() + ", the primary has " + primaryVersion + "): its changes "
                + "may derive from values it never saw, so they are not saved", key.shortHex(), null);
    }

    private Optional<SessionRow> readLive() {
        try {
            return with.rows().read(key, deadline)
                    .filter(row -> !with.expiry().isOverAt(row.state(), with.clock().instant()));
        } catch (CorruptSessionDataException e) {
            // Whatever replaced the session is not one: it is not written over.
            return Optional.empty();
        }
    }

    private SaveResult written(RowWrite write, SaveResult outcome) {
        with.writes().count(outcome == SaveResult.TOUCHED ? StoreCounter.TOUCHES : StoreCounter.FULL_WRITES, write);
        session.written(write.state().record(plan.current().id()), write, plan.changes());
        return outcome;
    }

    private UserIndex.Entry entry(String user) {
        return with.entries().of(user, plan.current().creationTime(), key, plan.current().id());
    }

    private void giveBack(String token) {
        try {
            with.rows().dropLease(key, token, deadline);
        } catch (StoreUnavailableException e) {
            // The lease ends by its own TTL; what the caller needs is the save's own outcome or error.
        }
    }
}
