package io.hbasesessions.store;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Jittered exponential pauses between attempts that lost a race. Full jitter (a random pause up to
 * the exponential bound) keeps writers that collided once from colliding again in lockstep.
 */
final class Backoff {

    private final long firstMillis;
    private final long capMillis;

    Backoff(long firstMillis, long capMillis) {
        this.firstMillis = firstMillis;
        this.capMillis = capMillis;
    }

    /**
     * Sleeps before attempt {@code attempt} (1 = the first retry). False, without sleeping, when the
     * pause would leave nothing of the deadline for the attempt itself.
     */
    boolean pauseBefore(int attempt, Deadline deadline) {
        long boundMillis = Math.min(capMillis, firstMillis << Math.min(attempt - 1, 20));
        long pauseMillis = ThreadLocalRandom.current().nextLong(boundMillis + 1);
        if (pauseMillis >= deadline.remainingMillis()) {
            return false;
        }
        sleep(pauseMillis);
        return true;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while waiting to retry a session write", null, e);
        }
    }
}
