package io.hbasesessions.testing.load;

import java.util.List;

/**
 * What reading every session back on every node found, one entry per session. A session is lost when its
 * counter on a node, after the retries, stays below the last value a write was acknowledged with (or the
 * session is gone); it is unreadable when no read of it on a node succeeded. {@code staleReadsRetried} counts reads that first showed an
 * older counter and a later one the acknowledged value (a secondary replica behind its primary).
 */
public record Verification(int sessions, int nodes, long acknowledgedWrites, List<String> lost, List<String> unreadable,
        long staleReadsRetried) {

    public boolean everyAcknowledgedWriteReadBack() {
        return lost.isEmpty() && unreadable.isEmpty();
    }

    @Override
    public String toString() {
        return sessions + " sessions read back on " + nodes + " nodes: " + acknowledgedWrites + " acknowledged writes, "
                + lost.size() + " sessions lost" + (lost.isEmpty() ? "" : " " + lost) + ", " + unreadable.size()
                + " unreadable" + (unreadable.isEmpty() ? "" : " " + unreadable) + ", " + staleReadsRetried
                + " stale reads retried";
    }
}
