package io.hbasesessions.store;

import java.util.Objects;

/**
 * A session as it was read from (or last written to) the store: the record the application sees,
 * plus what the store needs to save it later without a lost update: the stored version and the
 * stored state itself, whose per-attribute bytes tell which attributes a request changed (even in
 * place) and which the application could not read (they are carried through writes untouched).
 * Adapters keep it for the length of a request and hand it back to {@link SessionStore#save}.
 */
public final class LoadedSession {

    private final SessionRecord record;
    private final long version;
    private final StoredState storedState;
    private final String leaseToken;

    LoadedSession(SessionRecord record, long version, StoredState storedState, String leaseToken) {
        this.record = Objects.requireNonNull(record, "record");
        this.version = version;
        this.storedState = Objects.requireNonNull(storedState, "storedState");
        this.leaseToken = leaseToken;
    }

    /** The session as stored; its attribute values are live objects the application may change. */
    public SessionRecord record() {
        return record;
    }

    /** The stored version this was read at; each write increments it. */
    public long version() {
        return version;
    }

    /** The state cell as read, the base every change of this request is computed against. */
    StoredState storedState() {
        return storedState;
    }

    /** The pessimistic lease this load holds, or {@code null}. */
    String leaseToken() {
        return leaseToken;
    }

    @Override
    public String toString() {
        return "LoadedSession[version=" + version + ", " + record + "]";
    }
}
