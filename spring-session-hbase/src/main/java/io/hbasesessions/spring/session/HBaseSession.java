package io.hbasesessions.spring.session;

import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.StoredSession;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.session.Session;

/**
 * A Spring Session {@link Session} kept in HBase: the store's working copy of the session ({@link StoredSession}),
 * whose attribute map records what this request reads and sets, and the metadata as the application changed it.
 * {@link HBaseIndexedSessionRepository#save} writes what changed; with {@code FlushMode.IMMEDIATE} each change is
 * saved at once.
 */
public final class HBaseSession implements Session {

    private final StoredSession stored;
    private final HBaseIndexedSessionRepository repository;
    private final Clock clock;
    private SessionRecord current;
    /** The id the next save moves the stored session to, when the application changed it. */
    private String pendingId;

    HBaseSession(StoredSession stored, HBaseIndexedSessionRepository repository, Clock clock) {
        this.stored = stored;
        this.repository = repository;
        this.clock = clock;
        this.current = stored.record();
    }

    @Override
    public String getId() {
        return pendingId != null ? pendingId : current.id();
    }

    /** A new id, given to the stored session by the next save (at once with {@code FlushMode.IMMEDIATE}). */
    @Override
    public String changeSessionId() {
        String newId = repository.newId();
        pendingId = newId;
        repository.changed(this);
        return newId;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getAttribute(String attributeName) {
        return (T) stored.attributes().get(attributeName);
    }

    /** The names of the attributes this node can read; one whose class is missing here is left out, and kept. */
    @Override
    public Set<String> getAttributeNames() {
        return new TreeSet<>(stored.attributes().keySet());
    }

    /** Sets an attribute; {@code null} removes it, as Spring Session's sessions do. */
    @Override
    public void setAttribute(String attributeName, Object attributeValue) {
        Objects.requireNonNull(attributeName, "attributeName");
        if (attributeValue == null) {
            stored.attributes().remove(attributeName);
        } else {
            stored.attributes().put(attributeName, attributeValue);
        }
        repository.changed(this);
    }

    @Override
    public void removeAttribute(String attributeName) {
        stored.attributes().remove(attributeName);
        repository.changed(this);
    }

    @Override
    public Instant getCreationTime() {
        return current.creationTime();
    }

    @Override
    public void setLastAccessedTime(Instant lastAccessedTime) {
        current = current.withLastAccessTime(lastAccessedTime);
        repository.changed(this);
    }

    @Override
    public Instant getLastAccessedTime() {
        return current.lastAccessTime();
    }

    /** Zero or negative: the session never idles out (it still ends at the store's {@code maxLifetimeSeconds}). */
    @Override
    public void setMaxInactiveInterval(Duration interval) {
        current = current.withMaxInactiveInterval(Objects.requireNonNull(interval, "interval"));
        repository.changed(this);
    }

    @Override
    public Duration getMaxInactiveInterval() {
        return current.maxInactiveInterval();
    }

    /** Whether the session has been idle longer than its maximum inactive interval, by the repository's clock. */
    @Override
    public boolean isExpired() {
        return current.idleExpiryTime().filter(end -> !end.isAfter(clock.instant())).isPresent();
    }

    StoredSession stored() {
        return stored;
    }

    /** The metadata to write: the stored id until a save moves it. */
    SessionRecord current() {
        return current;
    }

    /** The id the next save moves the session to, or null. */
    String pendingId() {
        return pendingId;
    }

    /** After a save: the stored session is what was written. */
    void saved() {
        pendingId = null;
        current = stored.record().withLastAccessTime(current.lastAccessTime())
                .withMaxInactiveInterval(current.maxInactiveInterval());
    }

    @Override
    public String toString() {
        // The id is a bearer token: never print it.
        return "HBaseSession[" + current + "]";
    }
}
