package io.hbasesessions.store;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The {@code s:state} cell: a session's metadata and each attribute's serialized bytes. Immutable
 * (the byte arrays are never handed out for writing). Layout 3, all big-endian:
 * <pre>
 * format byte   high nibble: layout (3); low nibble: codec of the values (1 Kryo, 2 Java)
 * creation ms, last access ms, max inactive ms (&lt;= 0: never idles), cell TTL ms (0: not chosen yet;
 *               Long.MAX_VALUE: no cell TTL, the family TTL alone)
 * login         string name (length -1: no login), string auth type, int role count, strings
 * indexed user  string (length -1: none): the user "log out everywhere" finds this session under
 * system        string (length -1: none): the session system that wrote the row ({@link Container#sessionSystem()})
 * home          layout 4 only: string, the route of the node whose copy of the session is trusted
 *               ({@code stickySessions}); a state without a home is written as layout 3
 * attributes    int count; string name, int length, value bytes
 * CRC32C of all the above (int)
 * </pre>
 * A string is an int length and UTF-8 bytes. Layouts 1 and 2 (earlier versions, without the system) are
 * still read. Layout 4 is written only for a home, so that nodes of the version before it read every session
 * until {@code stickySessions} is turned on.
 */
final class StoredState {

    private static final int LAYOUT_V1 = 0x10;
    private static final int LAYOUT_V2 = 0x20;
    private static final int LAYOUT_V3 = 0x30;
    private static final int LAYOUT_V4 = 0x40;
    private static final int LAYOUT_MASK = 0xF0;
    private static final int CODEC_KRYO = 0x01;
    private static final int CODEC_JAVA = 0x02;
    private static final int CRC_BYTES = Integer.BYTES;
    /** Layout 1 kept Tomcat's login in these attributes; layout 2 keeps it as {@link SessionPrincipal}. */
    private static final Set<String> LAYOUT_V1_LOGIN_ATTRIBUTES =
            Set.of("io.hbasesessions.tomcat.principal", "io.hbasesessions.tomcat.authType");

    private final SerializerKind codec;
    private final Instant creationTime;
    private final Instant lastAccessTime;
    private final Duration maxInactiveInterval;
    private final long cellTtlMillis;
    private final Optional<SessionPrincipal> login;
    private final Optional<String> indexedUser;
    private final Optional<String> sessionSystem;
    private final Optional<String> home;
    private final Map<String, byte[]> attributeBytes;

    private StoredState(Builder builder) {
        this.codec = builder.codec;
        this.creationTime = builder.creationTime;
        this.lastAccessTime = builder.lastAccessTime;
        this.maxInactiveInterval = builder.maxInactiveInterval;
        this.cellTtlMillis = builder.cellTtlMillis;
        this.login = builder.login;
        this.indexedUser = builder.indexedUser;
        this.sessionSystem = builder.sessionSystem;
        this.home = builder.home;
        this.attributeBytes = Collections.unmodifiableMap(new LinkedHashMap<>(builder.attributeBytes));
    }

    /** The state of a session that is not stored yet: no attributes, no cell TTL chosen. */
    static StoredState newSession(SerializerKind codec, SessionRecord record) {
        return newSession(codec, record, Optional.empty());
    }

    /** As {@link #newSession(SerializerKind, SessionRecord)}, at home on the node of route {@code home}. */
    static StoredState newSession(SerializerKind codec, SessionRecord record, Optional<String> home) {
        Builder builder = new Builder();
        builder.home = home;
        builder.codec = codec;
        builder.creationTime = record.creationTime();
        builder.lastAccessTime = record.lastAccessTime();
        builder.maxInactiveInterval = record.maxInactiveInterval();
        builder.login = record.login();
        return builder.build();
    }

    SerializerKind codec() {
        return codec;
    }

    Instant creationTime() {
        return creationTime;
    }

    Instant lastAccessTime() {
        return lastAccessTime;
    }

    Duration maxInactiveInterval() {
        return maxInactiveInterval;
    }

    /** The cell TTL this row's cells were last written with: 0 before the first write, Long.MAX_VALUE for none. */
    long cellTtlMillis() {
        return cellTtlMillis;
    }

    Optional<SessionPrincipal> login() {
        return login;
    }

    Optional<String> indexedUser() {
        return indexedUser;
    }

    /** The session system that wrote this state; empty for a state written before states named it. */
    Optional<String> sessionSystem() {
        return sessionSystem;
    }

    /** The route of the node whose copy of this session may answer its requests ({@code stickySessions}). */
    Optional<String> home() {
        return home;
    }

    /** Attribute name to serialized value, in the order they were stored. */
    Map<String, byte[]> attributeBytes() {
        return attributeBytes;
    }

    /** The metadata of this state for the session {@code id}. */
    SessionRecord record(String id) {
        return new SessionRecord(id, creationTime, lastAccessTime, maxInactiveInterval, login);
    }

    Builder toBuilder() {
        return new Builder(this);
    }

    byte[] toBytes() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(256 + attributeBytes.size() * 64);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeByte((home.isPresent() ? LAYOUT_V4 : LAYOUT_V3) | codecNibble(codec));
            out.writeLong(creationTime.toEpochMilli());
            out.writeLong(lastAccessTime.toEpochMilli());
            out.writeLong(maxInactiveInterval.toMillis());
            out.writeLong(cellTtlMillis);
            writeString(out, login.map(SessionPrincipal::name).orElse(null));
            if (login.isPresent()) {
                writeString(out, login.get().authType());
                out.writeInt(login.get().roles().size());
                for (String role : login.get().roles()) {
                    writeString(out, role);
                }
            }
            writeString(out, indexedUser.orElse(null));
            writeString(out, sessionSystem.orElse(null));
            if (home.isPresent()) {
                writeString(out, home.get());
            }
            out.writeInt(attributeBytes.size());
            for (Map.Entry<String, byte[]> attribute : attributeBytes.entrySet()) {
                writeString(out, attribute.getKey());
                out.writeInt(attribute.getValue().length);
                out.write(attribute.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Writing to memory cannot fail", e);
        }
        byte[] body = buffer.toByteArray();
        return ByteBuffer.allocate(body.length + CRC_BYTES).put(body).putInt(crc32c(body, body.length)).array();
    }

    /** @throws CorruptSessionDataException if the bytes are not a state cell this store can read */
    static StoredState parse(byte[] cell) {
        if (cell == null || cell.length < 1 + CRC_BYTES) {
            throw new CorruptSessionDataException("state cell is " + (cell == null ? "missing" : cell.length + " bytes")
                    + ", too short to be a session");
        }
        int layout = cell[0] & LAYOUT_MASK;
        SerializerKind codec = codecOf(cell[0]);
        if (layout != LAYOUT_V1 && layout != LAYOUT_V2 && layout != LAYOUT_V3 && layout != LAYOUT_V4) {
            throw new CorruptSessionDataException(String.format("unknown format byte 0x%02x (this version reads "
                    + "layouts 0x%02x, 0x%02x, 0x%02x and 0x%02x)", cell[0], LAYOUT_V1, LAYOUT_V2, LAYOUT_V3, LAYOUT_V4));
        }
        int bodyLength = cell.length - CRC_BYTES;
        if (ByteBuffer.wrap(cell, bodyLength, CRC_BYTES).getInt() != crc32c(cell, bodyLength)) {
            throw new CorruptSessionDataException("state cell checksum does not match: truncated or damaged ("
                    + cell.length + " bytes)");
        }
        ByteBuffer in = ByteBuffer.wrap(cell, 1, bodyLength - 1);
        try {
            StoredState state = layout == LAYOUT_V1 ? readLayout1(codec, in) : readLayout(codec, in, layout);
            if (in.hasRemaining()) {
                throw new IllegalArgumentException(in.remaining() + " unexpected trailing bytes");
            }
            return state;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptSessionDataException("state cell layout is damaged: " + e, e);
        }
    }

    /** Layouts 2 to 4: layout 2 has no session system, layouts before 4 no home. */
    private static StoredState readLayout(SerializerKind codec, ByteBuffer in, int layout) {
        Builder builder = readTimes(codec, in);
        builder.cellTtlMillis = in.getLong();
        String loginName = readString(in);
        if (loginName != null) {
            String authType = readString(in);
            List<String> roles = new ArrayList<>();
            for (int i = readCount(in); i > 0; i--) {
                roles.add(requireNonNull(readString(in), "role"));
            }
            builder.login = Optional.of(new SessionPrincipal(loginName, roles, authType));
        }
        builder.indexedUser = Optional.ofNullable(readString(in));
        if (layout >= LAYOUT_V3) {
            builder.sessionSystem = Optional.ofNullable(readString(in));
        }
        if (layout == LAYOUT_V4) {
            builder.home = Optional.of(requireNonNull(readString(in), "home"));
        }
        readAttributes(in, builder);
        return builder.build();
    }

    /** Layout 1: no login record (its Tomcat login attributes are dropped: the user logs in again), extras ignored. */
    private static StoredState readLayout1(SerializerKind codec, ByteBuffer in) {
        Builder builder = readTimes(codec, in);
        in.getLong(); // idle expiry, derived since layout 2
        builder.cellTtlMillis = in.getLong();
        builder.indexedUser = Optional.ofNullable(readString(in));
        for (int i = readCount(in); i > 0; i--) {
            readString(in);
            readString(in);
        }
        readAttributes(in, builder);
        builder.attributeBytes.keySet().removeAll(LAYOUT_V1_LOGIN_ATTRIBUTES);
        return builder.build();
    }

    private static Builder readTimes(SerializerKind codec, ByteBuffer in) {
        Builder builder = new Builder();
        builder.codec = codec;
        builder.creationTime = Instant.ofEpochMilli(in.getLong());
        builder.lastAccessTime = Instant.ofEpochMilli(in.getLong());
        builder.maxInactiveInterval = Duration.ofMillis(in.getLong());
        return builder;
    }

    private static void readAttributes(ByteBuffer in, Builder builder) {
        for (int i = readCount(in); i > 0; i--) {
            String name = requireNonNull(readString(in), "attribute name");
            byte[] value = new byte[readCount(in)];
            in.get(value);
            builder.attributeBytes.put(name, value);
        }
    }

    private static String requireNonNull(String text, String what) {
        if (text == null) {
            throw new IllegalArgumentException("a missing " + what);
        }
        return text;
    }

    private static SerializerKind codecOf(byte format) {
        return switch (format & ~LAYOUT_MASK) {
            case CODEC_KRYO -> SerializerKind.KRYO;
            case CODEC_JAVA -> SerializerKind.JAVA;
            default -> throw new CorruptSessionDataException(String.format("unknown codec in format byte 0x%02x", format));
        };
    }

    private static int codecNibble(SerializerKind codec) {
        return switch (codec) {
            case KRYO -> CODEC_KRYO;
            case JAVA -> CODEC_JAVA;
        };
    }

    private static void writeString(DataOutputStream out, String text) throws IOException {
        if (text == null) {
            out.writeInt(-1);
            return;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readString(ByteBuffer in) {
        int length = in.getInt();
        if (length == -1) {
            return null;
        }
        byte[] utf8 = new byte[checkedLength(length, in)];
        in.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    private static int readCount(ByteBuffer in) {
        return checkedLength(in.getInt(), in);
    }

    /** A count or length can never exceed the bytes left, which keeps hostile cells from allocating gigabytes. */
    private static int checkedLength(int length, ByteBuffer in) {
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("length " + length + " with " + in.remaining() + " bytes left");
        }
        return length;
    }

    private static int crc32c(byte[] bytes, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }

    /** A changed copy of a state; everything not set is copied from the state it started from. */
    static final class Builder {
        private SerializerKind codec;
        private Instant creationTime;
        private Instant lastAccessTime;
        private Duration maxInactiveInterval;
        private long cellTtlMillis;
        private Optional<SessionPrincipal> login = Optional.empty();
        private Optional<String> indexedUser = Optional.empty();
        private Optional<String> sessionSystem = Optional.empty();
        private Optional<String> home = Optional.empty();
        private final Map<String, byte[]> attributeBytes = new LinkedHashMap<>();

        private Builder() {
        }

        private Builder(StoredState state) {
            this.codec = state.codec;
            this.creationTime = state.creationTime;
            this.lastAccessTime = state.lastAccessTime;
            this.maxInactiveInterval = state.maxInactiveInterval;
            this.cellTtlMillis = state.cellTtlMillis;
            this.login = state.login;
            this.indexedUser = state.indexedUser;
            this.sessionSystem = state.sessionSystem;
            this.home = state.home;
            this.attributeBytes.putAll(state.attributeBytes);
        }

        Builder codec(SerializerKind newCodec) {
            this.codec = newCodec;
            return this;
        }

        Builder lastAccessTime(Instant accessTime) {
            this.lastAccessTime = accessTime;
            return this;
        }

        Builder maxInactiveInterval(Duration interval) {
            this.maxInactiveInterval = interval;
            return this;
        }

        Builder cellTtlMillis(long ttlMillis) {
            this.cellTtlMillis = ttlMillis;
            return this;
        }

        Builder login(Optional<SessionPrincipal> newLogin) {
            this.login = newLogin;
            return this;
        }

        Builder indexedUser(Optional<String> user) {
            this.indexedUser = user;
            return this;
        }

        Builder sessionSystem(Optional<String> system) {
            this.sessionSystem = system;
            return this;
        }

        Builder home(Optional<String> route) {
            this.home = route;
            return this;
        }

        Builder attribute(String name, byte[] bytes) {
            attributeBytes.put(name, bytes);
            return this;
        }

        Builder removeAttribute(String name) {
            attributeBytes.remove(name);
            return this;
        }

        Builder clearAttributes() {
            attributeBytes.clear();
            return this;
        }

        StoredState build() {
            return new StoredState(this);
        }
    }
}
