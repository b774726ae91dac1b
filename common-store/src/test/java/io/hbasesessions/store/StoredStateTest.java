package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class StoredStateTest {

    private static final Instant CREATED = Instant.parse("2026-11-30T08:00:00Z");

    private static StoredState sample() {
        Map<String, byte[]> attributes = new LinkedHashMap<>();
        attributes.put("cart", new byte[] {1, 2, 3});
        attributes.put("ünïcode", "value".getBytes(StandardCharsets.UTF_8));
        return new StoredState(SerializerKind.KRYO, CREATED, CREATED.plusSeconds(5), Duration.ofMinutes(30), "alice",
                Map.of("cookieSetMs", "123"), attributes);
    }

    @Test
    void roundTripsEveryField() {
        StoredState copy = StoredState.parse(sample().toBytes());
        assertEquals(SerializerKind.KRYO, copy.serializer());
        assertEquals(CREATED, copy.creationTime());
        assertEquals(CREATED.plusSeconds(5), copy.lastAccessTime());
        assertEquals(Duration.ofMinutes(30), copy.maxInactiveInterval());
        assertEquals(Optional.of(CREATED.plusSeconds(5).plus(Duration.ofMinutes(30))), copy.idleExpiryTime());
        assertEquals(Optional.of("alice"), copy.principal());
        assertEquals(Map.of("cookieSetMs", "123"), copy.extras());
        assertEquals(Set.of("cart", "ünïcode"), copy.attributeBytes().keySet());
        assertArrayEquals(new byte[] {1, 2, 3}, copy.attributeBytes().get("cart"));
    }

    @Test
    void idleExpiryIsExactToTheMillisecond() {
        StoredState state = sample();
        Instant expiry = CREATED.plusSeconds(5).plus(Duration.ofMinutes(30));
        assertFalse(state.isIdleExpiredAt(expiry.minusMillis(1)));
        assertTrue(state.isIdleExpiredAt(expiry));
    }

    @Test
    void neverIdleExpiringSessionHasNoExpiry() {
        StoredState state = new StoredState(SerializerKind.JAVA, CREATED, CREATED, Duration.ZERO, null, Map.of(), Map.of());
        StoredState copy = StoredState.parse(state.toBytes());
        assertEquals(Optional.empty(), copy.idleExpiryTime());
        assertFalse(copy.isIdleExpiredAt(Instant.MAX));
        assertEquals(Optional.empty(), copy.principal());
    }

    @Test
    void unknownFormatByteIsNamedInTheError() {
        byte[] bytes = sample().toBytes();
        bytes[0] = 0x7e;
        CorruptSessionDataException e = assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(bytes));
        assertTrue(e.getMessage().contains("0x7e"), e.getMessage());
    }

    @Test
    void truncatedCellIsCorrupt() {
        byte[] bytes = sample().toBytes();
        for (int length : new int[] {0, 1, 4, bytes.length / 2, bytes.length - 1}) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(truncated), "length " + length);
        }
    }

    @Test
    void flippedBitIsCorrupt() {
        byte[] bytes = sample().toBytes();
        bytes[bytes.length / 2] ^= 0x10;
        assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(bytes));
    }

    @Test
    void foreignBytesAreCorrupt() {
        assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(null));
        assertThrows(CorruptSessionDataException.class,
                () -> StoredState.parse("{\"json\":\"from another app\"}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void attributeChangesReplaceAndRemoveByName() {
        StoredState changed = sample().withAttributeChanges(Map.of("cart", new byte[] {9}, "new", new byte[] {7}),
                Set.of("ünïcode"));
        assertEquals(Set.of("cart", "new"), changed.attributeBytes().keySet());
        assertArrayEquals(new byte[] {9}, changed.attributeBytes().get("cart"));
    }
}
