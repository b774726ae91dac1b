package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue #3, point 7: "log out everywhere" through the {@code user_sessions} index. */
@ExtendWith(HBaseExtension.class)
class RevocationTest {

    private static final MutableClock CLOCK = new MutableClock(TestStores.START);
    private static StoreSettings settings;
    private static SessionStore shop;
    private static SessionStore blog;
    private static HBaseInspector hbase;

    @BeforeAll
    static void open(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) {
        settings = TestStores.settings(server, namespace).build();
        shop = SessionStores.open(settings, CLOCK);
        blog = SessionStores.open(settings.toBuilder().keyScope("/blog").build(), CLOCK);
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void close() throws Exception {
        shop.close();
        blog.close();
        hbase.close();
    }

    private static SessionRecord createIn(SessionStore store, String principal) {
        CLOCK.advance(Duration.ofSeconds(1));
        SessionRecord session = SessionRecord.builder(TestStores.newId(), CLOCK.instant()).principal(principal)
                .attribute("cart", "book").build();
        store.create(session);
        return session;
    }

    /** Index rows that name this principal, found by their bytes rather than through the store. */
    private static List<Result> indexRowsOf(String principal) {
        byte[] name = (principal + "|").getBytes(StandardCharsets.UTF_8);
        return hbase.scan(settings.indexTable()).stream()
                .filter(row -> Arrays.equals(Arrays.copyOfRange(row.getRow(), 2, Math.min(row.getRow().length, 2 + name.length)), name))
                .toList();
    }

    @Test
    void fiveSessionsOfOneUserAcrossTwoScopesAreAllGoneWithTheirIndexEntries() {
        String principal = "carol-" + TestStores.newId();
        List<SessionRecord> inShop = new ArrayList<>();
        List<SessionRecord> inBlog = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inShop.add(createIn(shop, principal));
        }
        for (int i = 0; i < 2; i++) {
            inBlog.add(createIn(blog, principal));
        }
        SessionRecord someoneElse = createIn(shop, "dave-" + TestStores.newId());
        assertEquals(5, shop.findByPrincipal(principal).size());
        assertEquals(5, indexRowsOf(principal).size());

        assertEquals(5, shop.revokeAll(principal));

        inShop.forEach(session -> assertTrue(shop.load(session.id()).isEmpty()));
        inBlog.forEach(session -> assertTrue(blog.load(session.id()).isEmpty()));
        inShop.forEach(session -> assertTrue(hbase.row(settings.table(), TestStores.rowKey("/shop", session.id())).isEmpty()));
        inBlog.forEach(session -> assertTrue(hbase.row(settings.table(), TestStores.rowKey("/blog", session.id())).isEmpty()));
        assertEquals(List.of(), indexRowsOf(principal));
        assertTrue(shop.findByPrincipal(principal).isEmpty());
        assertTrue(shop.load(someoneElse.id()).isPresent());
        assertEquals(1, shop.findByPrincipal(someoneElse.principal().orElseThrow()).size());
    }

    @Test
    void indexEntryWhoseSessionWasNeverWrittenIsSkippedWithoutError() {
        String principal = "erin-" + TestStores.newId();
        SessionRecord real = createIn(shop, principal);
        Instant crashedLogin = CLOCK.instant().plusSeconds(1);
        hbase.put(settings.indexTable(), new Put(PrincipalIndex.rowKey(principal, crashedLogin))
                .addColumn(SessionTable.FAMILY, TestStores.rowKey("/shop", TestStores.newId()), new byte[0]));
        assertEquals(2, indexRowsOf(principal).size());

        List<IndexedSession> found = shop.findByPrincipal(principal);
        assertEquals(List.of(SessionKey.forNewSession("/shop", real.id()).hex()),
                found.stream().map(IndexedSession::sessionKeyHex).toList());
        assertEquals(1, shop.revokeAll(principal));
        assertEquals(List.of(), indexRowsOf(principal), "the dangling entry goes too");
    }

    /**
     * A principal may contain '|', and two principals can share the 2 salt bytes: then one's row key
     * starts with the other's prefix. Only the principal parsed from the row tells them apart.
     */
    @Test
    void principalsSharingSaltAndPrefixAreNotConfused() {
        String principal = "frank-" + TestStores.newId().substring(0, 6);
        String lookalike = lookalikeOf(principal);
        SessionRecord mine = createIn(shop, principal);
        SessionRecord theirs = createIn(shop, lookalike);

        assertEquals(1, shop.findByPrincipal(principal).size());
        assertEquals(1, shop.revokeAll(principal));
        assertTrue(shop.load(mine.id()).isEmpty());
        assertTrue(shop.load(theirs.id()).isPresent());
        assertEquals(1, shop.findByPrincipal(lookalike).size());
    }

    /** {@code principal + "|" + n} whose salt equals the principal's (about 65,000 hashes to find). */
    private static String lookalikeOf(String principal) {
        byte[] salt = Arrays.copyOf(SessionKey.sha256(principal.getBytes(StandardCharsets.UTF_8)), 2);
        for (int n = 0; ; n++) {
            String candidate = principal + "|" + n;
            if (Arrays.equals(salt, Arrays.copyOf(SessionKey.sha256(candidate.getBytes(StandardCharsets.UTF_8)), 2))) {
                return candidate;
            }
        }
    }
}
