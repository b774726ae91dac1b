package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A session's metadata as the store sees it, independent of any container: immutable. The attributes
 * travel beside it, in the {@link SessionAttributes} of a {@link StoredSession}. A
 * {@code maxInactiveInterval} of zero or less means the session never expires for idleness (it still
 * ends at the store's {@code maxLifetimeSeconds}).
 *
 * @param id the container's session id without a route suffix
 * @param login the container login of this session, if any
 */
public record SessionRecord(String id, Instant creationTime, Instant lastAccessTime, Duration maxInactiveInterval,
        Optional<SessionPrincipal> login) {

    public SessionRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(creationTime, "creationTime");
        Objects.requireNonNull(lastAccessTime, "lastAccessTime");
        Objects.requireNonNull(maxInactiveInterval, "maxInactiveInterval");
        Objects.requireNonNull(login, "login");
    }

    /** A new anonymous session created at {@code creationTime}, which is also its first access. */
    public static SessionRecord created(String id, Instant creationTime, Duration maxInactiveInterval) {
        return new SessionRecord(id, creationTime, creationTime, maxInactiveInterval, Optional.empty());
    }

    /** When this session ends if nobody uses it again; empty if it never idles out (it still ends at its maximum lifetime). */
    public Optional<Instant> idleExpiryTime() {
        return ExpiryPolicy.expiresWhenIdle(maxInactiveInterval)
                ? Optional.of(lastAccessTime.plus(maxInactiveInterval)) : Optional.empty();
    }

    public SessionRecord withLastAccessTime(Instant accessTime) {
        return new SessionRecord(id, creationTime, accessTime, maxInactiveInterval, login);
    }

    public SessionRecord withMaxInactiveInterval(Duration interval) {
        return new SessionRecord(id, creationTime, lastAccessTime, interval, login);
    }

    public SessionRecord withLogin(SessionPrincipal principal) {
        return new SessionRecord(id, creationTime, lastAccessTime, maxInactiveInterval, Optional.ofNullable(principal));
    }

    public SessionRecord withId(String newId) {
        return new SessionRecord(newId, creationTime, lastAccessTime, maxInactiveInterval, login);
    }

    @Override
    public String toString() {
        // The id is a bearer token: never print it.
        return "SessionRecord[created=" + creationTime + ", lastAccess=" + lastAccessTime
                + ", maxInactive=" + maxInactiveInterval + ", login=" + login.isPresent() + "]";
    }
}
