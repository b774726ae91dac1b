package io.hbasesessions.store;

import java.util.Objects;
import java.util.Optional;

/**
 * One request's working copy of a session: its metadata as last read or written, its live
 * {@link SessionAttributes}, and what the store needs to save it without losing another writer's
 * update (the stored state and version it started from). Adapters keep it as long as their container
 * keeps the session object and hand it back to {@link SessionStore#save}, which brings it up to date.
 */
public final class StoredSession {

    private final SessionAttributes attributes;
    private volatile boolean transientSession;
    private SessionRecord record;
    /** The state as stored, or as it will be created: the base every change is computed against. */
    private StoredState state;
    /** 0 while the session is not stored yet. */
    private long version;
    /** The pessimistic lease the load took and the next save gives back, or null. */
    private String leaseToken;
    private volatile boolean stale;
    /** The route of this node when the next save moves the session's home here ({@code stickySessions}). */
    private volatile Optional<String> claimedHome = Optional.empty();

    StoredSession(SessionRecord record, StoredState state, long version, SessionAttributes attributes,
            String leaseToken, boolean transientSession, boolean stale) {
        this.record = Objects.requireNonNull(record, "record");
        this.state = Objects.requireNonNull(state, "state");
        this.version = version;
        this.attributes = attributes;
        this.leaseToken = leaseToken;
        this.transientSession = transientSession;
        this.stale = stale;
    }

    /** The session's metadata as last read from or written to the store. */
    public SessionRecord record() {
        return record;
    }

    /** The session's attributes; the adapter gives this map to the container as the session's own. */
    public SessionAttributes attributes() {
        return attributes;
    }

    /** False until the first save stores it. */
    public boolean isStored() {
        return version > 0;
    }

    /**
     * True for a session created while the store was unreachable with {@code failMode=new_session}:
     * it lives for this request only and is never stored.
     */
    public boolean isTransient() {
        return transientSession;
    }

    /** From now on this session is never stored (see {@link #isTransient()}). */
    void makeTransient() {
        transientSession = true;
    }

    /**
     * True while this copy comes from a secondary region replica ({@code timelineReads}): it may miss the
     * primary's latest writes, even its deletion. A save still writes only over the primary's version, so a
     * session revoked or invalidated meanwhile is never written back; a successful save makes it false.
     */
    public boolean isStale() {
        return stale;
    }

    /** The user "log out everywhere" finds this session under, as last stored. */
    public Optional<String> indexedUser() {
        return state.indexedUser();
    }

    StoredState state() {
        return state;
    }

    long version() {
        return version;
    }

    Optional<String> claimedHome() {
        return claimedHome;
    }

    /** The next save makes this node the session's home, whose copy answers the requests routed to it. */
    void claimHome(String route) {
        claimedHome = Optional.of(route);
    }

    /** Takes the lease token: it is given back by exactly one save or release. */
    String takeLeaseToken() {
        String token = leaseToken;
        leaseToken = null;
        return token;
    }

    /** After a write: this copy now starts from what was written. */
    synchronized void written(SessionRecord newRecord, RowWrite write, AttributeChanges changes) {
        this.record = newRecord;
        this.state = write.state();
        this.version = write.version();
        this.stale = false;
        attributes.rebase(write.state().attributeBytes(), changes);
    }

    @Override
    public String toString() {
        return "StoredSession[version=" + version + (stale ? ", stale" : "") + ", " + record + "]";
    }
}
