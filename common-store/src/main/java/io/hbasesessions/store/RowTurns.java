package io.hbasesessions.store;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * The saves of one store to one session row take turns, and each starts from what the one before it wrote.
 * Concurrent requests of one session on one node (tabs, parallel XHR) would otherwise all write against the
 * version they loaded: one holds, every other fails its check, reads the row again and tries once more, so each
 * extra writer costs every writer more round trips. Taking turns, a save that waited starts from the state and
 * version the previous save of this node wrote (when that is newer than what its request loaded), so its write
 * holds unless another node wrote in between; that conflict costs the read and one more write. Rows nobody is
 * saving hold no memory here.
 */
final class RowTurns {

    private final ConcurrentHashMap<SessionKey, Turn> turns = new ConcurrentHashMap<>();

    /** One row's turns: who writes now, and what the last save of this node wrote there. */
    static final class Turn {
        private final ReentrantLock lock = new ReentrantLock(true);
        /** Saves holding or waiting for this turn; changed only inside the map's compute, under its bin lock. */
        private int saves;
        /** Guarded by {@link #lock}: empty when the last save wrote nothing, failed, or found the session gone. */
        private Optional<SessionRow> lastWritten = Optional.empty();

        /** What the last save of this node wrote, if it is newer than {@code loadedVersion}. */
        Optional<SessionRow> writtenAfter(long loadedVersion) {
            return lastWritten.filter(row -> row.version() > loadedVersion);
        }

        void written(Optional<SessionRow> row) {
            lastWritten = row;
        }
    }

    /**
     * Runs {@code save} in the row's turn, after the saves that were waiting before it.
     *
     * @throws StoreUnavailableException if the turn does not come within the deadline
     */
    <T> T inTurn(SessionKey key, Deadline deadline, Function<Turn, T> save) {
        Turn turn = turns.compute(key, (row, current) -> {
            Turn joined = current != null ? current : new Turn();
            joined.saves++;
            return joined;
        });
        try {
            if (!turn.lock.tryLock(deadline.remainingMillis(), TimeUnit.MILLISECONDS)) {
                throw new StoreUnavailableException("Other requests of this session on this node kept saving it for "
                        + "longer than operationTimeoutMillis=" + deadline.budgetMillis(), key.shortHex(), null);
            }
            try {
                return save.apply(turn);
            } catch (RuntimeException | Error e) {
                turn.written(Optional.empty());
                throw e;
            } finally {
                turn.lock.unlock();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while waiting to save the session", key.shortHex(), e);
        } finally {
            turns.computeIfPresent(key, (row, current) -> --current.saves == 0 ? null : current);
        }
    }
}
