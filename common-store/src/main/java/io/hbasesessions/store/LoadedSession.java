package io.hbasesessions.store;

import java.util.Map;
import java.util.Objects;

/**
 * A session as it was read from (or last written to) the store: the record the application sees,
 * plus what the store needs to save it later without a lost update (the stored version and a digest
 * of each attribute's serialized bytes). Adapters keep it for the length of a request and hand it
 * back to {@link SessionStore#save}; they never look inside.
 */
public final class LoadedSession {

    private final SessionRecord record;
    private final long version;
    private final Map<String, AttributeDigest> storedAttributeDigests;
    private final String leaseToken;

    LoadedSession(SessionRecord record, long version, Map<String, AttributeDigest> storedAttributeDigests,
            String leaseToken) {
        this.record = Objects.requireNonNull(record, "record");
        this.version = version;
        this.storedAttributeDigests = Map.copyOf(storedAttributeDigests);
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

    Map<String, AttributeDigest> storedAttributeDigests() {
        return storedAttributeDigests;
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
