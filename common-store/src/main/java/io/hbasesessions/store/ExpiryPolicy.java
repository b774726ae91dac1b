package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * When a session ends, when an unchanged one is rewritten, and how long HBase keeps its cells. The
 * checks in code decide expiry, to the millisecond; the cell TTL only lets HBase drop the bytes of
 * sessions nobody will ask for again.
 */
final class ExpiryPolicy {

    /** Room in the cell TTL for clock differences between nodes; never more than the idle timeout itself. */
    private static final Duration MAX_SLACK = Duration.ofSeconds(60);

    private final Duration touchInterval;
    private final Duration maxLifetime;
    private final Duration keptForSweep;

    ExpiryPolicy(long touchIntervalSeconds, long maxLifetimeSeconds) {
        this(touchIntervalSeconds, maxLifetimeSeconds, Duration.ZERO);
    }

    /**
     * @param keptForSweep how much longer HBase keeps an expired session's cells so that a sweeper finds it
     *     ({@code expiryEvents}: the event delay, plus the lease of a sweeper that died); zero without events
     */
    ExpiryPolicy(long touchIntervalSeconds, long maxLifetimeSeconds, Duration keptForSweep) {
        this.touchInterval = Duration.ofSeconds(touchIntervalSeconds);
        this.maxLifetime = Duration.ofSeconds(maxLifetimeSeconds);
        this.keptForSweep = keptForSweep;
    }

    /** The one rule for "never idles": an interval of zero or less, as in {@code HttpSession.setMaxInactiveInterval}. */
    static boolean expiresWhenIdle(Duration maxInactive) {
        return !maxInactive.isNegative() && !maxInactive.isZero();
    }

    /** Whether a session is over at {@code now}: idle too long, or older than the maximum lifetime. */
    boolean isOverAt(StoredState state, Instant now) {
        return isIdleExpiredAt(state, now) || !now.isBefore(state.creationTime().plus(maxLifetime));
    }

    /** The first instant at which {@link #isOverAt} holds, as {@code state} stands. */
    Instant endOf(StoredState state) {
        Instant lifetimeEnd = state.creationTime().plus(maxLifetime);
        if (!expiresWhenIdle(state.maxInactiveInterval())) {
            return lifetimeEnd;
        }
        Instant idleEnd = state.lastAccessTime().plus(state.maxInactiveInterval());
        return idleEnd.isBefore(lifetimeEnd) ? idleEnd : lifetimeEnd;
    }

    private static boolean isIdleExpiredAt(StoredState state, Instant now) {
        return expiresWhenIdle(state.maxInactiveInterval())
                && !now.isBefore(state.lastAccessTime().plus(state.maxInactiveInterval()));
    }

    /**
     * The configured touch interval, but at most a tenth of the idle timeout: an access that was not
     * written makes the session look idle at most that much early.
     */
    Duration effectiveTouchInterval(Duration maxInactive) {
        if (!expiresWhenIdle(maxInactive)) {
            return touchInterval;
        }
        Duration tenth = maxInactive.dividedBy(10);
        return tenth.compareTo(touchInterval) < 0 ? tenth : touchInterval;
    }

    /** Whether an access at {@code now} is worth a write, given the last access written to HBase. */
    boolean touchIsDue(Instant storedLastAccess, Instant now, Duration maxInactive) {
        return !now.isBefore(storedLastAccess.plus(effectiveTouchInterval(maxInactive)));
    }

    /**
     * The TTL of a write's cells, counted by HBase from the write: the idle timeout, plus the touch
     * interval (accesses not written), plus slack, plus the time a sweeper may take to find it. Empty when the session never idles out: the family
     * TTL ({@code maxLifetimeSeconds}) alone bounds it.
     */
    OptionalLong cellTtlMillis(Duration maxInactive) {
        if (!expiresWhenIdle(maxInactive)) {
            return OptionalLong.empty();
        }
        Duration slack = maxInactive.compareTo(MAX_SLACK) < 0 ? maxInactive : MAX_SLACK;
        return OptionalLong.of(maxInactive.plus(effectiveTouchInterval(maxInactive)).plus(slack).plus(keptForSweep)
                .toMillis());
    }

    /**
     * The cell TTL for the next write of {@code state}: what its idle timeout needs, but never shorter
     * than any earlier write of the row. HBase shows the newest cell that has not expired, so a newer
     * cell expiring before an older one (the idle timeout was shortened) would bring the older state
     * back. Long.MAX_VALUE stands for no cell TTL.
     */
    long nextCellTtlMillis(StoredState state) {
        return Math.max(cellTtlMillis(state.maxInactiveInterval()).orElse(Long.MAX_VALUE), state.cellTtlMillis());
    }
}
