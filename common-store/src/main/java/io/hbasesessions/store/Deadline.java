package io.hbasesessions.store;

import java.util.concurrent.TimeUnit;

/** The point by which one store operation, every HBase call and retry in it included, must be done. */
final class Deadline {

    private final long endNanos;
    private final long budgetMillis;

    private Deadline(long budgetMillis) {
        this.budgetMillis = budgetMillis;
        this.endNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(budgetMillis);
    }

    static Deadline afterMillis(long budgetMillis) {
        return new Deadline(budgetMillis);
    }

    long remainingMillis() {
        return Math.max(0, TimeUnit.NANOSECONDS.toMillis(endNanos - System.nanoTime()));
    }

    boolean hasPassed() {
        return endNanos - System.nanoTime() <= 0;
    }

    /** The whole budget this deadline was given, for messages. */
    long budgetMillis() {
        return budgetMillis;
    }
}
