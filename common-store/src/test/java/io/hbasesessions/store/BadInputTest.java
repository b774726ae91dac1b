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
import java.util.Arrays;
import java.util.List;
import java.util.Map;
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

/**
 * Issue #3, point 9: what the store does with bytes it did not write, sessions it must not write,
 * and ids no container would send. Never an exception a container cannot handle; never a partial write.
 */
@ExtendWith(HBaseExtension.class)
class BadInputTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static final MutationRecorder RECORDER = new MutationRecorder();
    private static final int MAX_SESSION_BYTES = 4096;
    private static StoreSettings settings;
    private static SessionStore store;
    private static HBaseInspector hbase;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) {
        settings = TestStores.settings(server, namespace).maxSessionBytes(MAX_SESSION_BYTES).build();
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

    private static SessionRecord.Builder newSession() {
        return SessionRecord.builder(TestStores.newId(), CLOCK.instant());
    }

    private static byte[] rawState(String sessionId) {
        return hbase.row(settings.table(), TestStores.rowKey(settings.keyScope(), sessionId))
                .getValue(SessionTable.FAMILY, SessionTable.STATE);
    }

    /** A valid state cell, damaged one way or another, put straight into HBase under a new id. */
    @ParameterizedTest
    @ValueSource(strings = {"garbage", "unknownFormatByte", "truncated", "versionCellOfFourBytes"})
    void unreadableCellMakesTheSessionAbsentWithOneClearLogLine(String damage) {
        SessionRecord donor = newSession().attribute("cart", List.of("book", "pen")).build();
        store.create(donor);
        byte[] good = rawState(donor.id());
        Map<String, UnaryOperator<byte[]>> damages = Map.of(
                "garbage", cell -> Bytes.toBytes("<html>not a session</html>"),
                "unknownFormatByte", cell -> { byte[] copy = cell.clone(); copy[0] = 0x7F; return copy; },
                "truncated", cell -> Arrays.copyOf(cell, cell.length / 2),
                "versionCellOfFourBytes", cell -> cell);
        String id = TestStores.newId();
        byte[] row = TestStores.rowKey(settings.keyScope(), id);
        byte[] version = damage.equals("versionCellOfFourBytes") ? Bytes.toBytes(1) : Bytes.toBytes(1L);
        hbase.put(settings.table(), new Put(row).addColumn(SessionTable.FAMILY, SessionTable.STATE,
                damages.get(damage).apply(good)).addColumn(SessionTable.FAMILY, SessionTable.VERSION, version));
        long unreadableBefore = store.counters().unreadableOnLoad();

        try (LogCapture log = new LogCapture()) {
            assertTrue(store.load(id).isEmpty());
            assertEquals(1, log.warnings().size(), log.warnings().toString());
            String warning = log.warnings().get(0);
            assertTrue(warning.contains(SessionKey.forNewSession(settings.keyScope(), id).shortHex()), warning);
            assertFalse(warning.contains(id), "the raw id is never logged");
            System.out.println(damage + " -> " + warning);
        }
        assertEquals(unreadableBefore + 1, store.counters().unreadableOnLoad());
        assertFalse(store.exists(id));
    }

    @Test
    void sessionOverMaxSessionBytesIsRefusedAndTheStoredStateStays() {
        LoadedSession loaded = store.create(newSession().attribute("cart", "book").build());
        byte[] before = rawState(loaded.record().id());
        RECORDER.drain();

        SessionTooLargeException e = assertThrows(SessionTooLargeException.class, () -> store.save(loaded,
                loaded.record().toBuilder().attribute("upload", "x".repeat(8 * 1024)).build()));
        assertTrue(e.sizeBytes() > MAX_SESSION_BYTES);
        assertEquals(MAX_SESSION_BYTES, e.maxSessionBytes());
        assertEquals(List.of(), RECORDER.all(), "nothing was written");
        assertArrayEquals(before, rawState(loaded.record().id()));
        assertEquals(Map.of("cart", "book"), store.load(loaded.record().id()).orElseThrow().record().attributes());

        SessionRecord tooBigFromTheStart = newSession().attribute("upload", "x".repeat(8 * 1024)).build();
        assertThrows(SessionTooLargeException.class, () -> store.create(tooBigFromTheStart));
        assertTrue(hbase.row(settings.table(), TestStores.rowKey(settings.keyScope(), tooBigFromTheStart.id())).isEmpty());
    }

    @Test
    void attributeHoldingAThreadFailsOnlyThatSaveAndNamesIt() {
        LoadedSession loaded = store.create(newSession().attribute("cart", "book").build());
        byte[] before = rawState(loaded.record().id());
        RECORDER.drain();

        UnserializableAttributeException e = assertThrows(UnserializableAttributeException.class, () -> store.save(loaded,
                loaded.record().toBuilder().attribute("worker", new HoldsThread()).attribute("cart", "pen").build()));
        assertEquals("worker", e.attributeName());
        assertTrue(e.getMessage().contains("'worker'"), e.getMessage());
        assertEquals(List.of(), RECORDER.all());
        assertArrayEquals(before, rawState(loaded.record().id()));
        assertEquals(Map.of("cart", "book"), store.load(loaded.record().id()).orElseThrow().record().attributes());
    }

    @Test
    void oddIdsFindNothingWithoutErrorOrWrite() {
        for (String id : Arrays.asList(null, "", "x".repeat(10 * 1024), "line\nbreak", "nul\u0000", "ключ-🙂")) {
            assertTrue(store.load(id).isEmpty());
            assertFalse(store.exists(id));
            assertFalse(store.delete(id));
        }
        assertEquals(List.of(), RECORDER.all());
    }

    @Test
    void nonAsciiIdRoundTrips() {
        String id = "sessión-ключ-会话-🙂-" + TestStores.newId();
        store.create(SessionRecord.builder(id, CLOCK.instant()).attribute("cart", "book").build());
        assertEquals("book", store.load(id).orElseThrow().record().attributes().get("cart"));
        assertTrue(store.delete(id));
    }

    @Test
    void createAndChangeIdRefuseIdsNoSessionCanHave() {
        assertThrows(IllegalArgumentException.class, () -> store.create(SessionRecord.builder("", CLOCK.instant()).build()));
        LoadedSession loaded = store.create(newSession().build());
        assertThrows(IllegalArgumentException.class, () -> store.changeId(loaded, loaded.record(), ""));
        assertThrows(IllegalArgumentException.class, () -> store.changeId(loaded, loaded.record(), null));
        assertThrows(IllegalArgumentException.class, () -> store.changeId(loaded, loaded.record(), "x".repeat(10 * 1024)));
        assertTrue(store.load(loaded.record().id()).isPresent());
    }

    /** Serializable on paper, but a live thread cannot be written by any codec. */
    static final class HoldsThread implements Serializable {
        private static final long serialVersionUID = 1L;
        final Thread worker = new Thread(() -> { });
    }
}
