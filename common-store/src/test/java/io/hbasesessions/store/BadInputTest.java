package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.io.Serializable;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad input gets a clear error and loses nothing: damaged cells, oversized sessions, odd ids. */
@ExtendWith(HBaseExtension.class)
class BadInputTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static final MutationRecorder RECORDER = new MutationRecorder();
    private static final long MAX_SESSION_BYTES = 4096;
    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static StoreSettings settings;
    private static SessionStore store;
    private static HBaseInspector hbase;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) {
        settings = TestStores.settings(server, namespace).set(Setting.MAX_SESSION_BYTES, MAX_SESSION_BYTES).build();
        store = TestStores.open(settings, CLOCK, RECORDER);
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        hbase.close();
    }

    @BeforeEach
    void forgetEarlierWrites() {
        RECORDER.drain();
    }

    private static byte[] rawState(String sessionId) {
        return hbase.row(settings.get(Setting.TABLE), TestStores.rowKey("/shop", sessionId))
                .getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE);
    }

    /** A valid state cell, damaged one way or another, put straight into HBase under a new id. */
    @ParameterizedTest
    @ValueSource(strings = {"garbage", "unknownFormatByte", "truncated", "flippedByte", "versionCellOfFourBytes"})
    void anUnreadableCellMakesTheSessionAbsentWithOneClearLogLine(String damage) {
        String donor = TestStores.create(store, CLOCK.instant(), HALF_AN_HOUR, Map.of("cart", List.of("book", "pen")))
                .record().id();
        byte[] good = rawState(donor);
        Map<String, UnaryOperator<byte[]>> damages = Map.of(
                "garbage", cell -> Bytes.toBytes("<html>not a session</html>"),
                "unknownFormatByte", cell -> { byte[] copy = cell.clone(); copy[0] = 0x7F; return copy; },
                "truncated", cell -> Arrays.copyOf(cell, cell.length / 2),
                "flippedByte", cell -> { byte[] copy = cell.clone(); copy[copy.length / 2] ^= 0x40; return copy; },
                "versionCellOfFourBytes", cell -> cell);
        String id = TestStores.newId();
        byte[] version = damage.equals("versionCellOfFourBytes") ? Bytes.toBytes(1) : Bytes.toBytes(1L);
        hbase.put(settings.get(Setting.TABLE), new Put(TestStores.rowKey("/shop", id))
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE, damages.get(damage).apply(good))
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION, version));
        long unreadableBefore = store.counters().get(StoreCounter.UNREADABLE_ON_LOAD);

        try (LogCapture log = new LogCapture()) {
            assertTrue(store.load(id).isEmpty());
            assertEquals(1, log.warnings().size(), log.warnings().toString());
            String warning = log.warnings().get(0);
            assertTrue(warning.contains(SessionKey.forNewSession("/shop", id).shortHex()), warning);
            assertFalse(warning.contains(id), "the raw id is never logged");
        }
        assertEquals(unreadableBefore + 1, store.counters().get(StoreCounter.UNREADABLE_ON_LOAD));
        assertEquals(Set.of(), store.liveAmong(List.of(id)));
    }

    @Test
    void aSessionOverMaxSessionBytesIsRefusedAndTheStoredStateStays() {
        StoredSession session = TestStores.create(store, CLOCK.instant(), HALF_AN_HOUR, Map.of("cart", "book"));
        String id = session.record().id();
        byte[] before = rawState(id);
        RECORDER.drain();
        session.attributes().put("upload", "x".repeat(8 * 1024));

        SessionTooLargeException e = assertThrows(SessionTooLargeException.class,
                () -> store.save(session, session.record()));
        assertTrue(e.sizeBytes() > MAX_SESSION_BYTES);
        assertEquals(MAX_SESSION_BYTES, e.maxSessionBytes());
        assertEquals(List.of(), RECORDER.all(), "nothing was written");
        assertArrayEquals(before, rawState(id));
        assertEquals(Map.of("cart", "book"), TestStores.attributesOf(store.load(id).orElseThrow()));

        StoredSession tooBigFromTheStart = store.newSession(SessionRecord.created(TestStores.newId(), CLOCK.instant(),
                HALF_AN_HOUR), false);
        tooBigFromTheStart.attributes().put("upload", "x".repeat(8 * 1024));
        assertThrows(SessionTooLargeException.class, () -> store.save(tooBigFromTheStart, tooBigFromTheStart.record()));
        assertTrue(hbase.row(settings.get(Setting.TABLE), TestStores.rowKey("/shop", tooBigFromTheStart.record().id()))
                .isEmpty());
    }

    @Test
    void anAttributeHoldingAThreadFailsOnlyThatSaveAndNamesIt() {
        StoredSession session = TestStores.create(store, CLOCK.instant(), HALF_AN_HOUR, Map.of("cart", "book"));
        String id = session.record().id();
        byte[] before = rawState(id);
        RECORDER.drain();
        session.attributes().put("worker", new HoldsThread());
        session.attributes().put("cart", "pen");

        UnserializableAttributeException e = assertThrows(UnserializableAttributeException.class,
                () -> store.save(session, session.record()));
        assertEquals("worker", e.attributeName());
        assertEquals(List.of(), RECORDER.all());
        assertArrayEquals(before, rawState(id));
        assertEquals(Map.of("cart", "book"), TestStores.attributesOf(store.load(id).orElseThrow()));
    }

    @Test
    void oddIdsFindNothingWithoutErrorOrWrite() {
        for (String id : Arrays.asList(null, "", "x".repeat(10 * 1024), "line\nbreak", "nul\u0000", "ключ-🙂",
                "a.b.c", "../../etc", "id;jsessionid=x")) {
            assertTrue(store.load(id).isEmpty());
            assertEquals(Set.of(), store.liveAmong(Arrays.asList(id)));
            assertFalse(store.delete(id));
        }
        assertEquals(List.of(), RECORDER.all());
    }

    @Test
    void aNewSessionOrMoveToAnIdNoSessionCanHaveIsRefused() {
        StoredSession impossible = store.newSession(SessionRecord.created("", CLOCK.instant(), HALF_AN_HOUR), false);
        assertThrows(IllegalArgumentException.class, () -> store.save(impossible, impossible.record()));
        StoredSession session = TestStores.create(store, CLOCK.instant(), HALF_AN_HOUR, Map.of());
        for (String newId : Arrays.asList("", null, "x".repeat(10 * 1024), "with.dot")) {
            assertThrows(IllegalArgumentException.class, () -> store.changeId(session, session.record(), newId));
        }
        assertTrue(store.load(session.record().id()).isPresent());
    }

    /** Serializable on paper, but a live thread cannot be written by any codec. */
    static final class HoldsThread implements Serializable {
        private static final long serialVersionUID = 1L;
        final Thread worker = new Thread(() -> { });
    }
}
