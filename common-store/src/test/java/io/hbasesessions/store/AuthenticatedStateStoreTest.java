package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code stateProtection} on a real HBase, each forgery written with a plain {@code Put}: a cell changed,
 * moved to another row, put under another version, written under an unknown key or without protection
 * is no session at all (the request gets a new one, as for an expired session) and is counted; a key
 * rotated in keeps the cells of the key before it.
 */
@ExtendWith(HBaseExtension.class)
class AuthenticatedStateStoreTest {

    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static final SessionPrincipal ADMIN = new SessionPrincipal("admin", List.of("manager-gui"), "FORM");
    private static final String BASKET = "basket-of-secret-things";
    @TempDir
    static Path work;
    private static StoreSettings settings;
    private static HBaseInspector hbase;
    /** Per mode: stores holding the old key only, the new key before the old one, and an unrelated key. */
    private static final Map<StateProtection, SessionStore> OLD_KEY = new EnumMap<>(StateProtection.class);
    private static final Map<StateProtection, SessionStore> ROTATED = new EnumMap<>(StateProtection.class);
    private static final Map<StateProtection, SessionStore> STRANGER = new EnumMap<>(StateProtection.class);
    private static SessionStore pessimistic;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) throws Exception {
        settings = TestStores.settings(server, namespace).build();
        String oldKey = StateSealTest.newKey();
        String newKey = StateSealTest.newKey();
        Path oldOnly = Files.write(work.resolve("old"), List.of(oldKey));
        Path rotated = Files.write(work.resolve("rotated"), List.of(newKey, "", oldKey));
        Path stranger = Files.write(work.resolve("stranger"), List.of(StateSealTest.newKey()));
        for (StateProtection mode : List.of(StateProtection.HMAC, StateProtection.ENCRYPT)) {
            OLD_KEY.put(mode, TestStores.open(protectedBy(mode, oldOnly).build()));
            ROTATED.put(mode, TestStores.open(protectedBy(mode, rotated).build()));
            STRANGER.put(mode, TestStores.open(protectedBy(mode, stranger).build()));
        }
        pessimistic = TestStores.open(protectedBy(StateProtection.HMAC, rotated)
                .set(Setting.LOCKING_MODE, LockingMode.PESSIMISTIC).build());
        hbase = new HBaseInspector(configuration);
    }

    private static StoreSettings.Builder protectedBy(StateProtection mode, Path keys) {
        return settings.toBuilder().set(Setting.STATE_PROTECTION, mode).set(Setting.STATE_KEY_FILE, keys);
    }

    @AfterAll
    static void close() throws Exception {
        for (Map<StateProtection, SessionStore> stores : List.of(OLD_KEY, ROTATED, STRANGER)) {
            for (SessionStore store : stores.values()) {
                store.close();
            }
        }
        pessimistic.close();
        hbase.close();
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void aLoginComesBackAndOnlyEncryptHidesItInHBase(StateProtection mode) {
        String id = createAdminSession(ROTATED.get(mode));
        StoredSession loaded = ROTATED.get(mode).load(id).orElseThrow();
        assertEquals(Optional.of(ADMIN), loaded.record().login());
        assertEquals(Map.of("basket", BASKET), TestStores.attributesOf(loaded));

        String cell = new String(stateCell(id), StandardCharsets.ISO_8859_1);
        boolean readable = cell.contains("admin") || cell.contains(BASKET);
        assertEquals(mode == StateProtection.HMAC, readable, "hmac authenticates, only encrypt hides");
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void aChangedByteMakesTheSessionAbsent(StateProtection mode) {
        SessionStore store = ROTATED.get(mode);
        String id = createAdminSession(store);
        byte[] cell = stateCell(id);
        cell[cell.length / 2] ^= 0x20;
        putRaw(id, cell, version(id));
        assertForged(store, id);
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void aCellCopiedFromAnotherSessionsRowIsAbsentThere(StateProtection mode) {
        SessionStore store = ROTATED.get(mode);
        String admins = createAdminSession(store);
        String visitors = TestStores.create(store, Instant.now(), HALF_AN_HOUR, Map.of("basket", "empty")).record().id();
        putRaw(visitors, stateCell(admins), version(admins));

        assertForged(store, visitors);
        assertEquals(Optional.of(ADMIN), store.load(admins).orElseThrow().record().login(), "the original is intact");
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void aCellUnderAnotherVersionIsAbsent(StateProtection mode) {
        SessionStore store = ROTATED.get(mode);
        String id = createAdminSession(store);
        putRaw(id, stateCell(id), version(id) + 1);
        assertForged(store, id);
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void cellsOfTheOldKeyLoadAfterRotationAndRewrittenCellsUseTheNewKey(StateProtection mode) {
        String id = createAdminSession(OLD_KEY.get(mode));
        StoredSession loaded = ROTATED.get(mode).load(id).orElseThrow();
        assertEquals(Optional.of(ADMIN), loaded.record().login(), "the old key still verifies");

        loaded.attributes().put("step", "checkout");
        assertEquals(SaveResult.WRITTEN, ROTATED.get(mode).save(loaded, loaded.record()));
        assertEquals("checkout", ROTATED.get(mode).load(id).orElseThrow().attributes().get("step"));
        assertForged(OLD_KEY.get(mode), id);
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void aCellOfAnUnknownKeyIsAbsent(StateProtection mode) {
        String id = createAdminSession(STRANGER.get(mode));
        assertForged(ROTATED.get(mode), id);
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void anUnprotectedCellNamingAnAdminLogsNobodyIn(StateProtection mode) {
        String id = TestStores.newId();
        StoredState forged = StoredState.newSession(SerializerKind.KRYO,
                SessionRecord.created(id, Instant.now(), HALF_AN_HOUR).withLogin(ADMIN)).toBuilder()
                .indexedUser(Optional.of("admin")).build();
        putRaw(id, forged.toBytes(), 1);
        try (LogCapture log = new LogCapture()) {
            assertForged(ROTATED.get(mode), id);
            assertTrue(log.warnings().stream().noneMatch(warning -> warning.contains(id)), log.warnings().toString());
        }
    }

    /** Issue #27: the default lets a writer of the table log in as anyone; a node says so once, when it starts. */
    @Test
    void aStoreWithoutProtectionSaysAtStartWhatThatMeansAndAProtectedOneDoesNot() throws Exception {
        Path keys = Files.write(work.resolve("start-keys"), List.of(StateSealTest.newKey()));
        for (StateProtection mode : StateProtection.values()) {
            StoreSettings.Builder configured = mode == StateProtection.NONE ? settings.toBuilder() : protectedBy(mode, keys);
            try (LogCapture log = new LogCapture(); SessionStore store = TestStores.open(configured.build())) {
                List<String> said = log.warnings().stream().filter(w -> w.contains("stateProtection=none")).toList();
                if (mode == StateProtection.NONE) {
                    assertEquals(1, said.size(), log.warnings().toString());
                    assertTrue(said.get(0).contains("anyone who can write that table can log in as any user"), said.get(0));
                } else {
                    assertEquals(List.of(), said, mode + " warned of none");
                }
            }
        }
    }

    @Test
    void aSaveUnderALeaseSealsTheVersionItStores() {
        String id = createAdminSession(pessimistic);
        for (int step = 1; step <= 3; step++) {
            StoredSession loaded = pessimistic.load(id).orElseThrow();
            loaded.attributes().put("step", step);
            assertEquals(SaveResult.WRITTEN, pessimistic.save(loaded, loaded.record()));
        }
        assertEquals(3, pessimistic.load(id).orElseThrow().attributes().get("step"));
        assertEquals(0, pessimistic.counters().get(StoreCounter.FORGED_STATES));
    }

    private static String createAdminSession(SessionStore store) {
        StoredSession session = store.newSession(SessionRecord.created(TestStores.newId(), Instant.now(), HALF_AN_HOUR)
                .withLogin(ADMIN), false);
        session.attributes().put("basket", BASKET);
        assertEquals(SaveResult.WRITTEN, store.save(session, session.record()));
        return session.record().id();
    }

    /** The row is no session for {@code store}: not loaded, not live, counted as forged. */
    private static void assertForged(SessionStore store, String id) {
        long before = store.counters().get(StoreCounter.FORGED_STATES);
        assertEquals(Optional.empty(), store.load(id));
        assertFalse(store.liveAmong(List.of(id)).contains(id));
        assertEquals(before + 2, store.counters().get(StoreCounter.FORGED_STATES));
    }

    private static Result row(String id) {
        return hbase.row(settings.get(Setting.TABLE), TestStores.rowKey("/shop", id));
    }

    private static byte[] stateCell(String id) {
        return row(id).getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE);
    }

    private static long version(String id) {
        return Bytes.toLong(row(id).getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION));
    }

    private static void putRaw(String id, byte[] state, long version) {
        hbase.put(settings.get(Setting.TABLE), new Put(TestStores.rowKey("/shop", id))
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE, state)
                .addColumn(HBaseSessionRows.FAMILY, HBaseSessionRows.VERSION, Bytes.toBytes(version)));
    }
}
