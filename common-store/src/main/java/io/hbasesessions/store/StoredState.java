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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * The {@code s:state} cell: a session's metadata and each attribute's serialized bytes. Immutable
 * (the byte arrays are never handed out for writing). Layout, all big-endian:
 * <pre>
 * format byte  (high nibble: layout version 1; low nibble: codec of the values, 1 Kryo, 2 Java)
 * creation ms, last access ms, max inactive ms (&lt;= 0: never idle-expires), idle expiry ms (Long.MAX_VALUE: never)
 * cell TTL ms   (0: not chosen yet; Long.MAX_VALUE: no cell TTL, the family TTL alone)
 * principal    (int length, -1 for none; UTF-8)
 * extras       (int count; name, value)
 * attributes   (int count; name, int length, value bytes)
 * CRC32C of all the above (int)
 * </pre>
 */
final class StoredState {

    private static final int LAYOUT_V1 = 0x10;
    private static final int CODEC_KRYO = 0x01;
    private static final int CODEC_JAVA = 0x02;
    private static final int CRC_BYTES = Integer.BYTES;

    private final SerializerKind serializer;
    private final Instant creationTime;
    private final Instant lastAccessTime;
    private final Duration maxInactiveInterval;
    private final long idleExpiryMillis;
    private final long cellTtlMillis;
    private final String principal;
    private final Map<String, String> extras;
    private final Map<String, byte[]> attributeBytes;

    StoredState(SerializerKind serializer, Instant creationTime, Instant lastAccessTime, Duration maxInactiveInterval,
            String principal, Map<String, String> extras, Map<String, byte[]> attributeBytes) {
        this(serializer, creationTime, lastAccessTime, maxInactiveInterval,
                idleExpiryMillis(lastAccessTime, maxInactiveInterval), 0, principal, extras, attributeBytes);
    }

    private StoredState(SerializerKind serializer, Instant creationTime, Instant lastAccessTime,
            Duration maxInactiveInterval, long idleExpiryMillis, long cellTtlMillis, String principal,
            Map<String, String> extras, Map<String, byte[]> attributeBytes) {
        this.serializer = serializer;
        this.creationTime = creationTime;
        this.lastAccessTime = lastAccessTime;
        this.maxInactiveInterval = maxInactiveInterval;
        this.idleExpiryMillis = idleExpiryMillis;
        this.cellTtlMillis = cellTtlMillis;
        this.principal = principal;
        this.extras = Collections.unmodifiableMap(new LinkedHashMap<>(extras));
        this.attributeBytes = Collections.unmodifiableMap(new LinkedHashMap<>(attributeBytes));
    }

    private static long idleExpiryMillis(Instant lastAccessTime, Duration maxInactiveInterval) {
        if (maxInactiveInterval.isZero() || maxInactiveInterval.isNegative()) {
            return Long.MAX_VALUE;
        }
        return lastAccessTime.plus(maxInactiveInterval).toEpochMilli();
    }

    SerializerKind serializer() {
        return serializer;
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

    Optional<Instant> idleExpiryTime() {
        return idleExpiryMillis == Long.MAX_VALUE ? Optional.empty() : Optional.of(Instant.ofEpochMilli(idleExpiryMillis));
    }

    boolean isIdleExpiredAt(Instant now) {
        return idleExpiryTime().map(expiry -> !now.isBefore(expiry)).orElse(false);
    }

    /**
     * The cell TTL this row's cells were last written with: 0 before the first write, Long.MAX_VALUE
     * for none (the family TTL alone).
     */
    long cellTtlMillis() {
        return cellTtlMillis;
    }

    Optional<String> principal() {
        return Optional.ofNullable(principal);
    }

    Map<String, String> extras() {
        return extras;
    }

    /** Attribute name to serialized value, in the order they were stored. */
    Map<String, byte[]> attributeBytes() {
        return attributeBytes;
    }

    StoredState withLastAccessTime(Instant accessTime) {
        return withMetadata(accessTime, maxInactiveInterval, principal, extras);
    }

    StoredState withAttributeChanges(Map<String, byte[]> setOrReplaced, Set<String> removed) {
        Map<String, byte[]> merged = new LinkedHashMap<>(attributeBytes);
        merged.keySet().removeAll(removed);
        merged.putAll(setOrReplaced);
        return new StoredState(serializer, creationTime, lastAccessTime, maxInactiveInterval, idleExpiryMillis,
                cellTtlMillis, principal, extras, merged);
    }

    StoredState withMetadata(Instant accessTime, Duration maxInactive, String newPrincipal, Map<String, String> newExtras) {
        return new StoredState(serializer, creationTime, accessTime, maxInactive, idleExpiryMillis(accessTime, maxInactive),
                cellTtlMillis, newPrincipal, newExtras, attributeBytes);
    }

    StoredState withCellTtlMillis(long ttlMillis) {
        return new StoredState(serializer, creationTime, lastAccessTime, maxInactiveInterval, idleExpiryMillis,
                ttlMillis, principal, extras, attributeBytes);
    }

    byte[] toBytes() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(256 + attributeBytes.size() * 64);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeByte(LAYOUT_V1 | codecNibble(serializer));
            out.writeLong(creationTime.toEpochMilli());
            out.writeLong(lastAccessTime.toEpochMilli());
            out.writeLong(maxInactiveInterval.toMillis());
            out.writeLong(idleExpiryMillis);
            out.writeLong(cellTtlMillis);
            writeNullableString(out, principal);
            out.writeInt(extras.size());
            for (Map.Entry<String, String> extra : extras.entrySet()) {
                writeNullableString(out, extra.getKey());
                writeNullableString(out, extra.getValue());
            }
            out.writeInt(attributeBytes.size());
            for (Map.Entry<String, byte[]> attribute : attributeBytes.entrySet()) {
                writeNullableString(out, attribute.getKey());
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
        SerializerKind serializer = serializerOf(cell[0]);
        int bodyLength = cell.length - CRC_BYTES;
        if (ByteBuffer.wrap(cell, bodyLength, CRC_BYTES).getInt() != crc32c(cell, bodyLength)) {
            throw new CorruptSessionDataException("state cell checksum does not match: truncated or damaged ("
                    + cell.length + " bytes)");
        }
        try {
            return readBody(serializer, ByteBuffer.wrap(cell, 1, bodyLength - 1));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptSessionDataException("state cell layout is damaged: " + e, e);
        }
    }

    private static StoredState readBody(SerializerKind serializer, ByteBuffer in) {
        Instant creation = Instant.ofEpochMilli(in.getLong());
        Instant lastAccess = Instant.ofEpochMilli(in.getLong());
        Duration maxInactive = Duration.ofMillis(in.getLong());
        long idleExpiry = in.getLong();
        long cellTtl = in.getLong();
        String principal = readNullableString(in);
        Map<String, String> extras = new LinkedHashMap<>();
        for (int i = readCount(in); i > 0; i--) {
            extras.put(readNullableString(in), readNullableString(in));
        }
        Map<String, byte[]> attributes = new LinkedHashMap<>();
        for (int i = readCount(in); i > 0; i--) {
            String name = readNullableString(in);
            byte[] value = new byte[readCount(in)];
            in.get(value);
            attributes.put(name, value);
        }
        if (in.hasRemaining()) {
            throw new IllegalArgumentException(in.remaining() + " unexpected trailing bytes");
        }
        return new StoredState(serializer, creation, lastAccess, maxInactive, idleExpiry, cellTtl, principal, extras,
                attributes);
    }

    private static SerializerKind serializerOf(byte format) {
        return switch (format) {
            case LAYOUT_V1 | CODEC_KRYO -> SerializerKind.KRYO;
            case LAYOUT_V1 | CODEC_JAVA -> SerializerKind.JAVA;
            default -> throw new CorruptSessionDataException(String.format(
                    "unknown format byte 0x%02x (this version reads 0x%02x and 0x%02x)", format,
                    LAYOUT_V1 | CODEC_KRYO, LAYOUT_V1 | CODEC_JAVA));
        };
    }

    private static int codecNibble(SerializerKind serializer) {
        return switch (serializer) {
            case KRYO -> CODEC_KRYO;
            case JAVA -> CODEC_JAVA;
        };
    }

    private static void writeNullableString(DataOutputStream out, String text) throws IOException {
        if (text == null) {
            out.writeInt(-1);
            return;
        }
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String readNullableString(ByteBuffer in) {
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
}
