package io.hbasesessions.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;

/**
 * The saves of one store to one session row take turns, and the save whose turn it is writes, in one write, its
 * own changes and those of every save of the row that queued while the previous write was on its way. Concurrent
 * requests of one session on one node (tabs, parallel XHR) would otherwise all write against the version they
 * loaded: one holds, every other fails its check, reads the row again and tries once more, so each extra writer
 * cost every writer more round trips, and under load another node's writer that needs a read and a write to catch
 * up rarely got its turn at all (issue #29). Here a node sends one write per round trip for a row however many
 * requests wait, starting from what it wrote last, so its write holds unless another node wrote in between; that
 * costs one read and one more write for all of them. Rows nobody is saving hold no memory here.
 */
final class RowTurns {

    private final ConcurrentHashMap<SessionKey, Turn> turns = new ConcurrentHashMap<>();

    /** A save waiting for its row's turn: whoever writes its changes completes it. */
    static final class Waiting<S> {
        private final S save;
        private final CompletableFuture<SaveResult> result = new CompletableFuture<>();

        Waiting(S save) {
            this.save = save;
        }

        S save() {
            return save;
        }

        void complete(SaveResult outcome) {
            result.complete(outcome);
        }

        void fail(Throwable failure) {
            result.completeExceptionally(failure);
        }

        boolean isDone() {
            return result.isDone();
        }
    }

    /** One row's turns: who writes now, who waits, and what the last write of this node put there. */
    static final class Turn {
        private final ReentrantLock lock = new ReentrantLock(true);
        private final Queue<Waiting<?>> waiting = new ConcurrentLinkedQueue<>();
        /** Saves holding or waiting for this turn; changed only inside the map's compute, under its bin lock. */
        private int saves;
        /** Guarded by {@link #lock}: empty when the last write wrote nothing, failed, or found the session gone. */
        private Optional<SessionRow> lastWritten = Optional.empty();

        /** What the last write of this node put in the row, if it is newer than {@code loadedVersion}. */
        Optional<SessionRow> writtenAfter(long loadedVersion) {
            return lastWritten.filter(row -> row.version() > loadedVersion);
        }

        void written(Optional<SessionRow> row) {
            lastWritten = row;
        }
    }

    /**
     * Queues {@code save} for the row's turn and returns its outcome: written by the save whose turn it is, or, when
     * its turn comes first, by {@code write} with every save queued by then ({@code save} first), which must
     * complete each of them.
     *
     * @throws StoreUnavailableException if the turn does not come within the deadline
     */
    @SuppressWarnings("unchecked")
    <S> SaveResult inTurn(SessionKey key, Deadline deadline, S save, BiConsumer<Turn, List<Waiting<S>>> write) {
        Turn turn = turns.compute(key, (row, current) -> {
            Turn joined = current != null ? current : new Turn();
            joined.saves++;
            return joined;
        });
        Waiting<S> mine = new Waiting<>(save);
        turn.waiting.add(mine);
        try {
            if (!turn.lock.tryLock(deadline.remainingMillis(), TimeUnit.MILLISECONDS)) {
                if (turn.waiting.remove(mine)) {
                    throw new StoreUnavailableException("Other requests of this session on this node kept saving it "
                            + "for longer than operationTimeoutMillis=" + deadline.budgetMillis(), key.shortHex(), null);
                }
                // Taken into a write that is under way: its writer completes it.
                return outcome(mine);
            }
            try {
                if (!mine.isDone()) {
                    List<Waiting<S>> batch = new ArrayList<>();
                    batch.add(mine);
                    turn.waiting.remove(mine);
                    for (Waiting<?> next = turn.waiting.poll(); next != null; next = turn.waiting.poll()) {
                        batch.add((Waiting<S>) next);
                    }
                    writeAll(turn, batch, write);
                }
            } finally {
                turn.lock.unlock();
            }
            return outcome(mine);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while waiting to save the session", key.shortHex(), e);
        } finally {
            turns.computeIfPresent(key, (row, current) -> --current.saves == 0 ? null : current);
        }
    }

    /** Every save of the batch is completed, whatever the write throws. */
    private static <S> void writeAll(Turn turn, List<Waiting<S>> batch, BiConsumer<Turn, List<Waiting<S>>> write) {
        try {
            write.accept(turn, batch);
        } catch (RuntimeException | Error e) {
            turn.written(Optional.empty());
            batch.forEach(waiting -> waiting.fail(e));
        }
    }

    private static SaveResult outcome(Waiting<?> waiting) {
        try {
            return waiting.result.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
