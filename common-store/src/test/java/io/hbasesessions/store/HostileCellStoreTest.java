package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.WarClassLoaderFixture.WarLoader;
import io.hbasesessions.store.codec.ForgedKryo;
import io.hbasesessions.store.codec.HostileValueTest;
import io.hbasesessions.store.codec.ReadLimits;
import io.hbasesessions.store.codec.SessionCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #11's probes through the store: each writes a session row with a plain HBase {@code Put}, one
 * ordinary attribute beside one hostile attribute, and loads it. None of the payload's code runs, the
 * hostile attribute alone is left out (counted as refused, one warning without the session id), the
 * rest of the session is intact, and the session can be saved with the hostile bytes carried through.
 */
@ExtendWith(HBaseExtension.class)
class HostileCellStoreTest {

    @TempDir
    static Path work;
    private static WarLoader war;
    private static StoreSettings settings;
    private static SessionStore store;
    private static SessionStore filtered;
    private static HBaseInspector hbase;

    /** A hostile attribute value, and the codec that writes it as a forger would. */
    enum Probe {
        GADGET_ON_THE_DENY_LIST, GADGET_THE_FILTER_REFUSES, HASHED_KEY_NOT_SERIALIZABLE, CLAIM_OF_2_GB,
        NESTED_HASH_SET_BOMB, DEEP_NESTING, CLASS_NAME_WITH_A_LINE_BREAK;

        byte[] bytes() throws Exception {
            SessionCodec kryo = SessionCodec.of(SerializerKind.KRYO, war);
            return switch (this) {
                case GADGET_ON_THE_DENY_LIST -> ForgedKryo.encode(List.of(WarClassLoaderFixture.newInstance(war,
                        WarClassLoaderFixture.DENIED_GADGET)));
                case GADGET_THE_FILTER_REFUSES -> kryo.encode(WarClassLoaderFixture.newInstance(war,
                        WarClassLoaderFixture.GADGET));
                case HASHED_KEY_NOT_SERIALIZABLE -> {
                    Map<Object, String> map = new HashMap<>();
                    map.put(WarClassLoaderFixture.newInstance(war, WarClassLoaderFixture.UNHASHABLE), "value");
                    yield ForgedKryo.encode(map);
                }
                case CLAIM_OF_2_GB -> HostileValueTest.kryoClaim(kryo.encode(new byte[] {1, 2, 3}), 0);
                case NESTED_HASH_SET_BOMB -> kryo.encode(HostileValueTest.hashSetBomb(25));
                case DEEP_NESTING -> kryo.encode(new NestedInArrays(ReadLimits.MAX_DEPTH * 2).outermost);
                // A class name is text from the bytes, quoted in the warning: "war.\nadget" must not start a log line.
                case CLASS_NAME_WITH_A_LINE_BREAK -> {
                    byte[] bytes = kryo.encode(WarClassLoaderFixture.newInstance(war, WarClassLoaderFixture.GADGET));
                    bytes[new String(bytes, StandardCharsets.ISO_8859_1).indexOf("war.G") + 4] = '\n';
                    yield bytes;
                }
            };
        }

        /** The probes a store with the deny list only refuses; the others need the attribute class filter. */
        boolean refusedWithoutAFilter() {
            return this != GADGET_THE_FILTER_REFUSES && this != CLASS_NAME_WITH_A_LINE_BREAK;
        }
    }

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) throws Exception {
        war = WarClassLoaderFixture.warLoader(work);
        settings = TestStores.settings(server, namespace).build();
        store = SessionStores.open(settings, new Webapp(war, Container.NONE));
        filtered = SessionStores.open(settings.toBuilder().set(Setting.ATTRIBUTE_CLASS_FILTER,
                HostileValueTest.TOMCAT_FILTER).build(), new Webapp(war, Container.NONE));
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        filtered.close();
        hbase.close();
        war.close();
    }

    @ParameterizedTest
    @EnumSource(Probe.class)
    void aHostileAttributeInAForgedRowIsLeftOutAndNothingOfItRuns(Probe probe) throws Exception {
        SessionStore reader = probe.refusedWithoutAFilter() ? store : filtered;
        byte[] hostile = probe.bytes();
        String id = forgeRow(Map.of("user", SessionCodec.of(SerializerKind.KRYO, war).encode("alice"), "hostile", hostile));
        WarClassLoaderFixture.clearMarks();
        long refusedBefore = reader.counters().get(StoreCounter.REFUSED_ATTRIBUTES);

        try (LogCapture log = new LogCapture()) {
            long start = System.nanoTime();
            StoredSession loaded = reader.load(id).orElseThrow();
            assertEquals(Map.of("user", "alice"), TestStores.attributesOf(loaded));
            long millis = (System.nanoTime() - start) / 1_000_000;
            System.out.printf("%s: %d hostile bytes, session loaded without them in %d ms%n", probe, hostile.length,
                    millis);

            assertEquals("", WarClassLoaderFixture.marks(), "none of the payload's code ran");
            assertEquals(refusedBefore + 1, reader.counters().get(StoreCounter.REFUSED_ATTRIBUTES));
            List<String> warnings = log.warnings().stream().filter(w -> w.contains("'hostile'")).toList();
            assertEquals(1, warnings.size(), log.warnings().toString());
            assertTrue(warnings.get(0).contains("was refused"), warnings.get(0));
            assertFalse(warnings.get(0).contains(id), "the raw id is never logged");
            assertFalse(warnings.get(0).contains("\n"), "one line, whatever the bytes name");

            loaded.attributes().put("step", "checkout");
            assertEquals(SaveResult.WRITTEN, reader.save(loaded, loaded.record()));
        }
        StoredState after = StoredState.parse(hbase.row(settings.get(Setting.TABLE), TestStores.rowKey("/shop", id))
                .getValue(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE));
        assertTrue(Arrays.equals(hostile, after.attributeBytes().get("hostile")), "its bytes are kept");
        assertEquals(Map.of("step", "checkout", "user", "alice"), TestStores.attributesOf(reader.load(id).orElseThrow()));
    }

    /** A session row with {@code attributes} as they are, written straight into HBase. */
    private static String forgeRow(Map<String, byte[]> attributes) {
        String id = TestStores.newId();
        ForgedState.putState(hbase, settings.get(Setting.TABLE), "/shop", id, ForgedState.stateCell(id, attributes));
        return id;
    }

    /** Object arrays each holding the next: Kryo reads them recursively. */
    private static final class NestedInArrays {
        final Object[] outermost = new Object[1];

        NestedInArrays(int levels) {
            Object[] innermost = outermost;
            for (int level = 1; level < levels; level++) {
                Object[] next = new Object[1];
                innermost[0] = next;
                innermost = next;
            }
        }
    }
}
