package io.hbasesessions.testing.load;

/**
 * One request of a load: when it was sent ({@link System#nanoTime()}), how long its answer took, the
 * node it went to, the session it was for (its number in {@link VerifiedLoad#sessionCookies()}), whether it
 * wrote, and its HTTP status, or {@link #NO_ANSWER} or {@link #CONNECTION_FAILED} when there was none.
 */
public record Outcome(long startNanos, long latencyNanos, int node, int session, boolean write, int status) {

    /** No answer within the load's request timeout: the request hung. */
    public static final int NO_ANSWER = -1;
    /** The connection was refused or broke: the node was down or closed it. */
    public static final int CONNECTION_FAILED = -2;

    public boolean succeeded() {
        return status >= 200 && status < 300;
    }

    public double latencyMillis() {
        return latencyNanos / 1e6;
    }
}
