package io.hbasesessions.store;

import java.time.Instant;
import java.util.Optional;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

/** A session row as read from HBase: its parsed state and the version a conditional write must match. */
record SessionRow(StoredState state, long version) {

    /**
     * Empty when the row holds no session (missing, TTL-expired, or only a lease).
     *
     * @throws CorruptSessionDataException if the cells are not a session this store wrote
     */
    static Optional<SessionRow> from(Result result) {
        byte[] state = result.getValue(SessionTable.FAMILY, SessionTable.STATE);
        if (state == null) {
            return Optional.empty();
        }
        byte[] version = result.getValue(SessionTable.FAMILY, SessionTable.VERSION);
        if (version == null || version.length != Bytes.SIZEOF_LONG) {
            throw new CorruptSessionDataException("the version cell is "
                    + (version == null ? "missing" : version.length + " bytes instead of 8"));
        }
        return Optional.of(new SessionRow(StoredState.parse(state), Bytes.toLong(version)));
    }

    /** As {@link #from}, but an unreadable row counts as no session: for paths that must not write over it. */
    static Optional<SessionRow> ifReadable(Result result) {
        try {
            return from(result);
        } catch (CorruptSessionDataException e) {
            return Optional.empty();
        }
    }

    boolean isLiveAt(Instant now) {
        return !state.isIdleExpiredAt(now);
    }
}
