package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * One session row as an operator sees it ({@code hbase-sessions inspect}): its metadata and, for each
 * attribute, its name, size and class. Values are decoded only when asked for, through the store's own read
 * rules (class rules, bounds) with the application classes the operator gives; otherwise the class is the one
 * the bytes name, and nothing of the value is decoded. A row that holds no session this store can read says
 * why in {@link #unreadable()} and carries nothing else. Every text here but the key comes from stored bytes.
 *
 * @param sessionKeyHex the row key in hex (never the session id)
 * @param found whether the row holds a session at all
 * @param unreadable why the row's cells are not a session this store wrote (corrupt, foreign, forged)
 */
public record SessionInspection(String sessionKeyHex, boolean found, Optional<String> unreadable,
        Optional<Metadata> metadata, List<Attribute> attributes) {

    public SessionInspection {
        attributes = List.copyOf(attributes);
    }

    static SessionInspection missing(String sessionKeyHex) {
        return new SessionInspection(sessionKeyHex, false, Optional.empty(), Optional.empty(), List.of());
    }

    static SessionInspection unreadable(String sessionKeyHex, String reason) {
        return new SessionInspection(sessionKeyHex, true, Optional.of(reason), Optional.empty(), List.of());
    }

    /**
     * @param version the row's version (writes so far)
     * @param codec the serializer its attributes were written with
     * @param ended whether the session is over (idle or past {@code maxLifetimeSeconds}): every node treats it as absent
     * @param endsAt when it is over, as it stands
     * @param login the container login's name, if any
     * @param indexedUser the user "log out everywhere" finds it under, if any
     * @param stateBytes the size of the state cell as parsed
     */
    public record Metadata(long version, SerializerKind codec, Instant creationTime, Instant lastAccessTime,
            Duration maxInactiveInterval, boolean ended, Instant endsAt, Optional<String> login,
            Optional<String> indexedUser, int stateBytes) {
    }

    /**
     * @param valueClass the decoded value's class; when values are not decoded, or this one could not be, the
     *     class its bytes name (empty if they name none)
     * @param undecodable why a value asked for was not decoded (its class is not among the application classes
     *     given, the read rules refused it, damaged bytes)
     * @param value the value's {@code toString()}, control characters replaced and cut at {@value #MAX_VALUE_CHARS}
     *     characters; only when values were asked for
     */
    public record Attribute(String name, int bytes, Optional<String> valueClass, Optional<String> undecodable,
            Optional<String> value) {

        public static final int MAX_VALUE_CHARS = 200;
    }
}
