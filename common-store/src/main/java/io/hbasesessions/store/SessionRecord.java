package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A session as the store sees it, independent of any container: immutable, although the attribute
 * values themselves are the application's objects. A {@code maxInactiveInterval} of zero or less
 * means the session never expires for idleness (it still ends at the store's maximum lifetime).
 */
public final class SessionRecord {

    private final String id;
    private final Instant creationTime;
    private final Instant lastAccessTime;
    private final Duration maxInactiveInterval;
    private final String principal;
    private final Map<String, Object> attributes;
    private final Map<String, String> extras;

    private SessionRecord(Builder builder) {
        this.id = Objects.requireNonNull(builder.id, "id");
        this.creationTime = Objects.requireNonNull(builder.creationTime, "creationTime");
        this.lastAccessTime = Objects.requireNonNull(builder.lastAccessTime, "lastAccessTime");
        this.maxInactiveInterval = Objects.requireNonNull(builder.maxInactiveInterval, "maxInactiveInterval");
        this.principal = builder.principal;
        this.attributes = Collections.unmodifiableMap(new LinkedHashMap<>(builder.attributes));
        this.extras = Collections.unmodifiableMap(new LinkedHashMap<>(builder.extras));
    }

    /** A new session created at {@code creationTime}, which is also its first access. */
    public static Builder builder(String id, Instant creationTime) {
        return new Builder(id, creationTime);
    }

    public String id() {
        return id;
    }

    public Instant creationTime() {
        return creationTime;
    }

    public Instant lastAccessTime() {
        return lastAccessTime;
    }

    public Duration maxInactiveInterval() {
        return maxInactiveInterval;
    }

    public boolean expiresWhenIdle() {
        return !maxInactiveInterval.isNegative() && !maxInactiveInterval.isZero();
    }

    /** When this session expires if nobody touches it again; empty if it never expires for idleness. */
    public Optional<Instant> idleExpiryTime() {
        return expiresWhenIdle() ? Optional.of(lastAccessTime.plus(maxInactiveInterval)) : Optional.empty();
    }

    public boolean isIdleExpiredAt(Instant now) {
        return idleExpiryTime().map(expiry -> !now.isBefore(expiry)).orElse(false);
    }

    public Optional<String> principal() {
        return Optional.ofNullable(principal);
    }

    /** Unmodifiable, in insertion order; values are never null. */
    public Map<String, Object> attributes() {
        return attributes;
    }

    /** Container-specific values that must travel with the session (e.g. Jetty's cookie-set time). */
    public Map<String, String> extras() {
        return extras;
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    public SessionRecord withId(String newId) {
        return toBuilder().id(newId).build();
    }

    public SessionRecord withLastAccessTime(Instant accessTime) {
        return toBuilder().lastAccessTime(accessTime).build();
    }

    public SessionRecord withAttributes(Map<String, ?> newAttributes) {
        return toBuilder().attributes(newAttributes).build();
    }

    public SessionRecord withPrincipal(String newPrincipal) {
        return toBuilder().principal(newPrincipal).build();
    }

    @Override
    public String toString() {
        // The id is a bearer token: never print it.
        return "SessionRecord[created=" + creationTime + ", lastAccess=" + lastAccessTime
                + ", maxInactive=" + maxInactiveInterval + ", principal=" + (principal != null)
                + ", attributes=" + attributes.keySet() + "]";
    }

    public static final class Builder {
        private String id;
        private Instant creationTime;
        private Instant lastAccessTime;
        private Duration maxInactiveInterval = Duration.ofMinutes(30);
        private String principal;
        private final Map<String, Object> attributes = new LinkedHashMap<>();
        private final Map<String, String> extras = new LinkedHashMap<>();

        private Builder(String id, Instant creationTime) {
            this.id = id;
            this.creationTime = creationTime;
            this.lastAccessTime = creationTime;
        }

        private Builder(SessionRecord record) {
            this.id = record.id;
            this.creationTime = record.creationTime;
            this.lastAccessTime = record.lastAccessTime;
            this.maxInactiveInterval = record.maxInactiveInterval;
            this.principal = record.principal;
            this.attributes.putAll(record.attributes);
            this.extras.putAll(record.extras);
        }

        public Builder id(String newId) {
            this.id = newId;
            return this;
        }

        public Builder lastAccessTime(Instant accessTime) {
            this.lastAccessTime = accessTime;
            return this;
        }

        public Builder maxInactiveInterval(Duration interval) {
            this.maxInactiveInterval = interval;
            return this;
        }

        /** {@code null} for an anonymous session. */
        public Builder principal(String name) {
            this.principal = name;
            return this;
        }

        /** Sets one attribute; a {@code null} value removes it, as {@code HttpSession.setAttribute} does. */
        public Builder attribute(String name, Object value) {
            Objects.requireNonNull(name, "attribute name");
            if (value == null) {
                attributes.remove(name);
            } else {
                attributes.put(name, value);
            }
            return this;
        }

        /** Replaces all attributes. */
        public Builder attributes(Map<String, ?> newAttributes) {
            attributes.clear();
            newAttributes.forEach(this::attribute);
            return this;
        }

        /** Replaces all extras. */
        public Builder extras(Map<String, String> newExtras) {
            extras.clear();
            newExtras.forEach(this::extra);
            return this;
        }

        public Builder extra(String name, String value) {
            Objects.requireNonNull(name, "extra name");
            if (value == null) {
                extras.remove(name);
            } else {
                extras.put(name, value);
            }
            return this;
        }

        public SessionRecord build() {
            return new SessionRecord(this);
        }
    }
}
