package io.hbasesessions.embedded;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits until a check succeeds (the master is initialized and a table round trip succeeds, for a
 * cluster also every region server has registered), a server process exits, or a deadline passes,
 * whichever comes first. Attempts run on a daemon thread so that neither a slow attempt nor a process
 * that died in the middle of one delays the answer.
 */
final class ReadinessProbe {

    enum Outcome { READY, SERVER_EXITED, TIMED_OUT }

    /** One attempt; it throws while the servers are not ready. */
    @FunctionalInterface
    interface Check {
        void run() throws Exception;
    }

    private static final Duration PAUSE_BETWEEN_ATTEMPTS = Duration.ofMillis(250);

    private final Check check;
    private volatile Exception lastFailure;

    ReadinessProbe(Check check) {
        this.check = check;
    }

    /** {@link Outcome#SERVER_EXITED} as soon as any of {@code servers} exits. */
    Outcome await(List<Process> servers, Instant deadline) throws InterruptedException {
        ExecutorService attempts = Executors.newSingleThreadExecutor(ReadinessProbe::daemonThread);
        try {
            while (true) {
                CompletableFuture<Boolean> attempt = CompletableFuture.supplyAsync(this::attemptSucceeds, attempts);
                Outcome outcome = awaitAttempt(attempt, servers, deadline);
                if (outcome != null) {
                    return outcome;
                }
                Thread.sleep(PAUSE_BETWEEN_ATTEMPTS.toMillis());
            }
        } finally {
            attempts.shutdownNow();
        }
    }

    /** Why the last attempt failed, for the timeout message; null if none failed. */
    Exception lastFailure() {
        return lastFailure;
    }

    /** The outcome, or null when the attempt failed and there is time for another one. */
    private static Outcome awaitAttempt(CompletableFuture<Boolean> attempt, List<Process> servers, Instant deadline)
            throws InterruptedException {
        long remainingMillis = Duration.between(Instant.now(), deadline).toMillis();
        if (remainingMillis <= 0) {
            return Outcome.TIMED_OUT;
        }
        try {
            List<CompletableFuture<?>> ends = new ArrayList<>(List.of(attempt));
            servers.forEach(server -> ends.add(server.onExit()));
            CompletableFuture.anyOf(ends.toArray(CompletableFuture[]::new)).get(remainingMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return Outcome.TIMED_OUT;
        } catch (ExecutionException e) {
            throw new IllegalStateException("attemptSucceeds() reports failures as false", e);
        }
        if (!servers.stream().allMatch(Process::isAlive)) {
            return Outcome.SERVER_EXITED;
        }
        return attempt.join() ? Outcome.READY : null;
    }

    private boolean attemptSucceeds() {
        try {
            check.run();
            return true;
        } catch (Exception e) {
            lastFailure = e;
            return false;
        }
    }

    private static Thread daemonThread(Runnable task) {
        Thread thread = new Thread(task, "embedded-hbase-readiness");
        thread.setDaemon(true);
        return thread;
    }
}
