package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * How a new session gets its row: written durably, its index entry first, under a random first version; over
 * the row of an ended session with the same id, never over a live one. Thread-safe; one per store.
 */
final class SessionCreation {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    /** A session's first version is below this: far from overflowing, and as unguessable as 62 random bits. */
    private static final long FIRST_VERSIONS = 1L << 62;

    private final StoreSettings settings;
    private final SaveOperation.Collaborators with;
    private final SavePlan.Durabilities durabilities;

    SessionCreation(StoreSettings settings, SaveOperation.Collaborators with, SavePlan.Durabilities durabilities) {
        this.settings = settings;
        this.with = with;
        this.durabilities = durabilities;
    }

    /**
     * With {@code failMode=new_session}, a new session HBase cannot take becomes transient: the request
     * goes on, as for a visitor whose session could not be read.
     */
    SaveResult create(StoredSession session, SavePlan plan, SessionKey key) {
        try {
            return write(session, plan, key);
        } catch (StoreUnavailableException e) {
            if (!settings.get(Setting.FAIL_MODE).continuesWithoutSession()) {
                throw e;
            }
            LOG.log(Level.WARNING, "HBase is unavailable; a new session is not stored and lives for this request "
                    + "only (failMode=new_session): {0}", e.getMessage());
            session.makeTransient();
            return SaveResult.UNCHANGED;
        }
    }

    /**
     * Writes a new session row durably, its index entry first. A row still there from an ended
     * session with the same id (HBase drops cells only after their TTL) is replaced; a live one is not.
     */
    private SaveResult write(StoredSession session, SavePlan plan, SessionKey key) {
        Deadline deadline = settings.operationDeadline();
        plan.newUser().ifPresent(user -> with.index().add(with.entries().of(user, plan.current().creationTime(), key,
                plan.current().id()), deadline));
        RowWrite write = insert(key, plan, deadline).orElseGet(() -> overEndedSession(key, plan, deadline));
        with.writes().count(StoreCounter.CREATES, write);
        session.written(write.state().record(plan.current().id()), write, plan.changes());
        return SaveResult.WRITTEN;
    }

    /**
     * Writes a new session into its row, unless the row holds a session (live or not). Its first version is random:
     * a writer still holding a copy of a session that ended under the same id cannot write over this one.
     */
    Optional<RowWrite> insert(SessionKey key, SavePlan plan, Deadline deadline) {
        long version = ThreadLocalRandom.current().nextLong(1, FIRST_VERSIONS);
        RowWrite fresh = with.writes().of(plan.stateFromBase(), version, durabilities.lifecycle(), key);
        with.tracking().beforeWrite(key, plan.current().id(), null, fresh.state(), durabilities.lifecycle(), deadline);
        if (with.rows().insert(key, fresh, deadline)) {
            return Optional.of(fresh);
        }
        // Over the end of a session with this id, which may hide cells of it: without a cell TTL, this one outlives them.
        RowWrite overEnd = with.writes().of(plan.stateFromBase().cellTtlMillis(Long.MAX_VALUE), version,
                durabilities.lifecycle(), key);
        return with.rows().insertOverEnd(key, overEnd, deadline) ? Optional.of(overEnd) : Optional.empty();
    }

    /** A row still holding a session whose end has passed (HBase drops cells only after their TTL) is written over. */
    private RowWrite overEndedSession(SessionKey key, SavePlan plan, Deadline deadline) {
        Optional<SessionRow> existing = with.rows().read(key, deadline);
        if (existing.isPresent() && with.expiry().isOverAt(existing.get().state(), with.clock().instant())) {
            StoredState.Builder next = plan.stateFromBase().cellTtlMillis(existing.get().state().cellTtlMillis());
            RowWrite over = with.writes().of(next, existing.get().version() + 1, durabilities.lifecycle(), key);
            if (with.rows().replace(key, existing.get().version(), over, deadline)) {
                return over;
            }
        }
        throw new SessionAlreadyExistsException(key.shortHex());
    }
}
