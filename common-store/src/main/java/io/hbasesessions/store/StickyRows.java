package io.hbasesessions.store;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The sessions table with {@link StickyCopies} kept in step: each write that holds leaves the home's copy as written,
 * each end takes it away, and a write or end over another node's home is announced before it is sent. Reads pass
 * through; which load a copy may answer is the protocol's decision ({@link SessionProtocol}).
 */
final class StickyRows implements SessionRows {

    private final SessionRows rows;
    private final StickyCopies copies;

    StickyRows(SessionRows rows, StickyCopies copies) {
        this.rows = rows;
        this.copies = copies;
    }

    @Override
    public Optional<SessionRow> read(SessionKey key, Deadline deadline) {
        return rows.read(key, deadline);
    }

    @Override
    public Optional<SessionRow> readForLoad(SessionKey key, Deadline deadline) {
        return rows.readForLoad(key, deadline);
    }

    @Override
    public List<Optional<SessionRow>> readAll(List<SessionKey> keys, Deadline deadline) {
        return rows.readAll(keys, deadline);
    }

    /** A new row: nobody else can hold a copy of it. */
    @Override
    public boolean insert(SessionKey key, RowWrite write, Deadline deadline) {
        return remembered(key, write, rows.insert(key, write, deadline));
    }

    @Override
    public boolean insertOverEnd(SessionKey key, RowWrite write, Deadline deadline) {
        return remembered(key, write, rows.insertOverEnd(key, write, deadline));
    }

    @Override
    public boolean replace(SessionKey key, long expectedVersion, RowWrite write, Deadline deadline) {
        copies.beforeReplace(key, expectedVersion, write, deadline);
        return remembered(key, write, rows.replace(key, expectedVersion, write, deadline));
    }

    @Override
    public boolean replaceUnderLease(SessionKey key, long expectedVersion, String leaseToken, RowWrite write,
            Deadline deadline) {
        copies.beforeReplace(key, expectedVersion, write, deadline);
        return remembered(key, write, rows.replaceUnderLease(key, expectedVersion, leaseToken, write, deadline));
    }

    @Override
    public boolean end(SessionKey key, SessionRow session, Deadline deadline) {
        copies.beforeEnd(key, session.state(), deadline);
        return rows.end(key, session, deadline);
    }

    @Override
    public List<SessionKey> endAll(List<Ending> endings, Deadline deadline) {
        endings.forEach(ending -> copies.beforeEnd(ending.key(), ending.session().state(), deadline));
        return rows.endAll(endings, deadline);
    }

    @Override
    public boolean endUnreadable(SessionKey key, Deadline deadline) {
        copies.beforeEndOfUnreadable(key, deadline);
        return rows.endUnreadable(key, deadline);
    }

    @Override
    public boolean takeLease(SessionKey key, String leaseToken, Duration leaseTimeout, Deadline deadline) {
        return rows.takeLease(key, leaseToken, leaseTimeout, deadline);
    }

    @Override
    public void dropLease(SessionKey key, String leaseToken, Deadline deadline) {
        rows.dropLease(key, leaseToken, deadline);
    }

    /** A write that held is what the row holds now; one that did not leaves no copy to trust. */
    private boolean remembered(SessionKey key, RowWrite write, boolean held) {
        if (held) {
            copies.remember(key, new SessionRow(write.state(), write.version(), false));
        } else {
            copies.forget(key);
        }
        return held;
    }
}
