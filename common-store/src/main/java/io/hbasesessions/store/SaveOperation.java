package io.hbasesessions.store;

import io.hbasesessions.store.SaveResult.Outcome;
import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Durability;

/**
 * One {@link SessionStore#save}: decides whether anything needs writing, writes it under the locking
 * mode's condition and, when another writer got in first, re-applies this request's changes on top
 * of the newer state until the write holds or the operation's time is up.
 */
final class SaveOperation {

    private static final int MAX_MERGE_ATTEMPTS = 50;

    private final StoreContext ctx;
    private final LoadedSession loaded;
    private final SessionRecord current;
    private final SessionKey key;
    private final Deadline deadline;
    private final SessionDelta delta;
    /**
     * What this save writes if nobody else wrote since the load (its durability is chosen when it is
     * written); built only once a write is due, as most saves of a read-mostly application write nothing.
     */
    private StateWrite next;
    private final Backoff backoff = new Backoff(2, 100);
    /** The pessimistic lease this save still has to give back; null once given back (or in other modes). */
    private String leaseToken;

    /**
     * Serializes {@code current}'s attributes to find what changed.
     *
     * @throws UnserializableAttributeException naming an attribute that cannot be serialized
     */
    SaveOperation(StoreContext ctx, LoadedSession loaded, SessionRecord current) {
        if (!loaded.record().id().equals(current.id())) {
            throw new IllegalArgumentException("save cannot change a session's id; use changeId");
        }
        this.ctx = ctx;
        this.loaded = loaded;
        this.current = current;
        this.leaseToken = loaded.leaseToken();
        this.key = SessionKey.forNewSession(ctx.settings.keyScope(), current.id());
        this.deadline = ctx.newDeadline();
        try {
            this.delta = SessionDelta.between(loaded, current, ctx.serializer, key.shortHex());
        } catch (RuntimeException e) {
            releaseLeaseIfHeld();
            throw e;
        }
    }

    /** @throws SessionTooLargeException before anything is written, if the state exceeds {@code maxSessionBytes} */
    SaveResult run() {
        try {
            return delta.isEmpty() ? touchOrSkip() : delta.principalChanged() ? writeWithIndex() : writeChanges();
        } finally {
            releaseLeaseIfHeld();
        }
    }

    private SaveResult touchOrSkip() {
        Instant storedAccess = loaded.storedState().lastAccessTime();
        if (!current.lastAccessTime().isAfter(storedAccess)) {
            ctx.counters.unchangedSaves.increment();
            return unchanged();
        }
        if (!ctx.expiry.touchIsDue(storedAccess, ctx.now(), current.maxInactiveInterval())) {
            ctx.counters.touchesSkipped.increment();
            return unchanged();
        }
        return write(Outcome.TOUCHED, StateWrite.durabilityOf(ctx.settings.touchDurability()));
    }

    private SaveResult writeChanges() {
        return write(Outcome.WRITTEN, StateWrite.durabilityOf(ctx.settings.writeDurability()));
    }

    /**
     * Login writes the index entry before the session, logout removes it after: a crash in between leaves
     * an entry that readers skip, never a session that "log out everywhere" cannot find.
     */
    private SaveResult writeWithIndex() {
        nextWrite();
        current.principal().ifPresent(principal -> ctx.index.add(principal, current.creationTime(), key, deadline));
        SaveResult result = write(Outcome.WRITTEN, Durability.SYNC_WAL);
        if (result.outcome() != Outcome.GONE) {
            loaded.record().principal().ifPresent(
                    principal -> ctx.index.remove(principal, loaded.record().creationTime(), key, deadline));
        }
        return result;
    }

    private SaveResult write(Outcome outcome, Durability durability) {
        StateWrite write = nextWrite().withDurability(durability);
        if (!firstAttempt(write)) {
            ctx.counters.conflicts.increment();
            return mergeAndRetry(outcome, durability);
        }
        countWrite(outcome, write);
        return SaveResult.of(outcome, new LoadedSession(current, write.version(), write.state(), null));
    }

    private StateWrite nextWrite() {
        if (next == null) {
            next = ctx.write(delta.applyTo(loaded.storedState()), loaded.version() + 1, Durability.SYNC_WAL, key);
        }
        return next;
    }

    private boolean firstAttempt(StateWrite write) {
        if (ctx.settings.lockingMode() == LockingMode.NONE) {
            ctx.sessions.overwrite(key, write, deadline);
            return true;
        }
        if (leaseToken == null) {
            return ctx.sessions.replace(key, loaded.version(), write, deadline);
        }
        boolean written = ctx.sessions.replaceUnderLease(key, leaseToken, write, deadline);
        if (written) {
            leaseToken = null;
        }
        return written;
    }

    /** Never writes over a session that was deleted or expired meanwhile: invalidation wins. */
    private SaveResult mergeAndRetry(Outcome outcome, Durability durability) {
        for (int attempt = 1; attempt <= MAX_MERGE_ATTEMPTS; attempt++) {
            Optional<SessionRow> newer = SessionRow.ifReadable(ctx.sessions.readRow(key, deadline))
                    .filter(row -> row.isLiveAt(ctx.now()));
            if (newer.isEmpty()) {
                return SaveResult.gone();
            }
            StateWrite write = ctx.write(delta.applyTo(newer.get().state()), newer.get().version() + 1, durability, key);
            if (ctx.sessions.replace(key, newer.get().version(), write, deadline)) {
                countWrite(outcome, write);
                return SaveResult.of(Outcome.MERGED,
                        ctx.decode(current.id(), key, new SessionRow(write.state(), write.version()), null));
            }
            ctx.counters.conflictRetries.increment();
            if (!backoff.pauseBefore(attempt, deadline)) {
                break;
            }
        }
        throw new StoreUnavailableException("Other writers kept changing this session; the save gave up within "
                + "operationTimeoutMillis=" + deadline.budgetMillis(), key.shortHex(), null);
    }

    private SaveResult unchanged() {
        return SaveResult.of(Outcome.UNCHANGED,
                new LoadedSession(loaded.record(), loaded.version(), loaded.storedState(), null));
    }

    private void countWrite(Outcome outcome, StateWrite write) {
        (outcome == Outcome.TOUCHED ? ctx.counters.touches : ctx.counters.fullWrites).increment();
        ctx.counters.bytesWritten.add(write.cell().length);
    }

    private void releaseLeaseIfHeld() {
        if (leaseToken == null) {
            return;
        }
        try {
            ctx.leases.release(key, leaseToken, deadline);
            leaseToken = null;
        } catch (StoreUnavailableException e) {
            // The lease cell dies by its own TTL; what the caller needs is the save's own outcome or error.
        }
    }
}
