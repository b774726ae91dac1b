package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The state cell's format: every field round-trips, damage is detected, and earlier layouts stay readable. */
class StoredStateTest {

    private static final Instant CREATED = Instant.parse("2026-11-30T08:00:00Z");

    private static StoredState sample() {
        SessionRecord record = new SessionRecord("id", CREATED, CREATED.plusSeconds(5), Duration.ofMinutes(30),
                Optional.of(new SessionPrincipal("alice", List.of("admin", "customer"), "FORM")));
        return StoredState.newSession(SerializerKind.KRYO, record).toBuilder()
                .indexedUser(Optional.of("alice"))
                .attribute("cart", new byte[] {1, 2, 3})
                .attribute("ünïcode", "value".getBytes(StandardCharsets.UTF_8))
                .cellTtlMillis(1_234)
                .build();
    }

    @Test
    void everyFieldRoundTrips() {
        StoredState copy = StoredState.parse(sample().toBytes());
        assertEquals(SerializerKind.KRYO, copy.codec());
        assertEquals(sample().record("id"), copy.record("id"));
        assertEquals(Optional.of("alice"), copy.indexedUser());
        assertEquals(1_234, copy.cellTtlMillis());
        assertEquals(Set.of("cart", "ünïcode"), copy.attributeBytes().keySet());
        assertArrayEquals(new byte[] {1, 2, 3}, copy.attributeBytes().get("cart"));
    }

    @Test
    void aSessionWithoutLoginOrUserRoundTrips() {
        StoredState state = StoredState.newSession(SerializerKind.JAVA,
                SessionRecord.created("id", CREATED, Duration.ZERO));
        StoredState copy = StoredState.parse(state.toBytes());
        assertEquals(SerializerKind.JAVA, copy.codec());
        assertEquals(Optional.empty(), copy.login());
        assertEquals(Optional.empty(), copy.indexedUser());
        assertEquals(Duration.ZERO, copy.maxInactiveInterval());
    }

    /** stickySessions' home is layout 4; a state without one stays layout 3, which the version before it reads. */
    @Test
    void aHomeMakesLayout4AndAStateWithoutOneStaysLayout3() {
        StoredState atHome = sample().toBuilder().home(Optional.of("node-7")).build();
        byte[] cell = atHome.toBytes();
        assertEquals(0x41, cell[0]);
        StoredState copy = StoredState.parse(cell);
        assertEquals(Optional.of("node-7"), copy.home());
        assertEquals(sample().record("id"), copy.record("id"));
        assertArrayEquals(new byte[] {1, 2, 3}, copy.attributeBytes().get("cart"));
        assertEquals(0x31, sample().toBytes()[0]);
        assertEquals(Optional.empty(), StoredState.parse(sample().toBytes()).home());
    }

    @Test
    void anUnknownFormatByteIsNamedInTheError() {
        byte[] bytes = sample().toBytes();
        bytes[0] = 0x7e;
        CorruptSessionDataException e = assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(bytes));
        assertTrue(e.getMessage().contains("0x7e"), e.getMessage());
    }

    @Test
    void aTruncatedOrDamagedCellIsCorrupt() {
        byte[] bytes = sample().toBytes();
        for (int length : new int[] {0, 1, 4, bytes.length / 2, bytes.length - 1}) {
            byte[] truncated = Arrays.copyOf(bytes, length);
            assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(truncated), "length " + length);
        }
        byte[] flipped = bytes.clone();
        flipped[10] ^= 1;
        assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(flipped));
    }

    /** A cell whose lengths claim more than it holds is refused without allocating for the claim. */
    @Test
    void aLengthClaimingMoreThanTheCellHoldsIsCorrupt() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeByte(0x21);
        out.writeLong(0);
        out.writeLong(0);
        out.writeLong(0);
        out.writeLong(0);
        out.writeInt(Integer.MAX_VALUE);
        assertThrows(CorruptSessionDataException.class, () -> StoredState.parse(withCrc(body.toByteArray())));
    }

    /** Issue #28: the session system that wrote a row is part of it; a layout 2 cell (before it was) names none. */
    @Test
    void theSessionSystemRoundTripsAndALayoutTwoCellNamesNone() throws IOException {
        StoredState shiros = sample().toBuilder().sessionSystem(Optional.of("shiro")).build();
        assertEquals(Optional.of("shiro"), StoredState.parse(shiros.toBytes()).sessionSystem());
        assertEquals(0x30, shiros.toBytes()[0] & 0xF0, "written as layout 3");

        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeByte(0x21);
        out.writeLong(CREATED.toEpochMilli());
        out.writeLong(CREATED.plusSeconds(5).toEpochMilli());
        out.writeLong(Duration.ofMinutes(30).toMillis());
        out.writeLong(1_234);
        out.writeInt(-1);
        writeString(out, "alice");
        out.writeInt(1);
        writeString(out, "cart");
        out.writeInt(3);
        out.write(new byte[] {1, 2, 3});
        StoredState layoutTwo = StoredState.parse(withCrc(body.toByteArray()));
        assertEquals(Optional.empty(), layoutTwo.sessionSystem());
        assertEquals(Optional.of("alice"), layoutTwo.indexedUser());
        assertEquals(Set.of("cart"), layoutTwo.attributeBytes().keySet());
    }

    /** Layout 1 (the first release): read, its extras ignored, Tomcat's login attributes dropped. */
    @Test
    void aLayoutOneCellIsStillRead() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeByte(0x11);
        out.writeLong(CREATED.toEpochMilli());
        out.writeLong(CREATED.plusSeconds(5).toEpochMilli());
        out.writeLong(Duration.ofMinutes(30).toMillis());
        out.writeLong(CREATED.plusSeconds(5).plus(Duration.ofMinutes(30)).toEpochMilli());
        out.writeLong(1_234);
        writeString(out, "alice");
        out.writeInt(1);
        writeString(out, "jetty.cookieSetTime");
        writeString(out, "1700000000000");
        out.writeInt(2);
        writeString(out, "cart");
        out.writeInt(3);
        out.write(new byte[] {1, 2, 3});
        writeString(out, "io.hbasesessions.tomcat.principal");
        out.writeInt(1);
        out.write(9);

        StoredState state = StoredState.parse(withCrc(body.toByteArray()));
        assertEquals(CREATED.plusSeconds(5), state.lastAccessTime());
        assertEquals(Optional.of("alice"), state.indexedUser());
        assertEquals(Set.of("cart"), state.attributeBytes().keySet());
        assertEquals(1_234, state.cellTtlMillis());
    }

    private static void writeString(DataOutputStream out, String text) throws IOException {
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static byte[] withCrc(byte[] body) {
        CRC32C crc = new CRC32C();
        crc.update(body);
        return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }
}
