package io.hbasesessions.embedded;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits until the master is initialized and a table round trip succeeds, the server process exits, or a deadline passes,
 * whichever comes first. Attempts run on a daemon thread so that neither a slow attempt nor a
 * process that died in the middle of one delays the answer.
 */
final class ReadinessProbe {

    enum Outcome { READY, SERVER_EXITED, TIMED_OUT }

    private static final Duration PAUSE_BETWEEN_ATTEMPTS = Duration.ofMillis(250);

    private final ControlClient client;
    private volatile Exception lastFailure;

    ReadinessProbe(ControlClient client) {
        this.client = client;
    }

    Outcome await(Process server, Instant deadline) throws InterruptedException {
        ExecutorService attempts = Executors.newSingleThreadExecutor(ReadinessProbe::daemonThread);
        try {
            while (true) {
                CompletableFuture<Boolean> attempt = CompletableFuture.supplyAsync(this::attemptSucceeds, attempts);
                Outcome outcome = awaitAttempt(attempt, server, deadline);
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
    private static Outcome awaitAttempt(CompletableFuture<Boolean> attempt, Process server, Instant deadline)
            throws InterruptedException {
        long remainingMillis = Duration.between(Instant.now(), deadline).toMillis();
        if (remainingMillis <= 0) {
            return Outcome.TIMED_OUT;
        }
        try {
            CompletableFuture.anyOf(attempt, server.onExit()).get(remainingMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return Outcome.TIMED_OUT;
        } catch (ExecutionException e) {
            throw new IllegalStateException("attemptSucceeds() reports failures as false", e);
        }
        if (!server.isAlive()) {
            return Outcome.SERVER_EXITED;
        }
        return attempt.join() ? Outcome.READY : null;
    }

    private boolean attemptSucceeds() {
        try {
            client.probeMasterAndTable();
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
