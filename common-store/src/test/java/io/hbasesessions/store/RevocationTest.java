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
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** "Log out everywhere" reaches every live session of a user, at any age, and removes only what it revoked. */
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
        shop = TestStores.open(settings, CLOCK);
        blog = TestStores.open(settings.toBuilder().set(Setting.KEY_SCOPE, "/blog").build(), CLOCK);
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void close() throws Exception {
        shop.close();
        blog.close();
        hbase.close();
    }

    private static StoredSession createIn(SessionStore store, String user) {
        CLOCK.advance(Duration.ofSeconds(1));
        StoredSession session = store.newSession(SessionRecord.created(TestStores.newId(), CLOCK.instant(),
                Duration.ofMinutes(30)).withLogin(new SessionPrincipal(user, List.of(), "FORM")), false);
        session.attributes().put("cart", "book");
        store.save(session, session.record());
        return session;
    }

    /** Index entries that name this user, found by their bytes rather than through the store. */
    private static List<byte[]> indexEntriesOf(String user) {
        byte[] name = (user + "|").getBytes(StandardCharsets.UTF_8);
        List<byte[]> entries = new ArrayList<>();
        for (Result row : hbase.scan(settings.get(Setting.INDEX_TABLE))) {
            byte[] key = row.getRow();
            if (Arrays.equals(Arrays.copyOfRange(key, 2, Math.min(key.length, 2 + name.length)), name)) {
                entries.addAll(row.getFamilyMap(HBaseSessionRows.FAMILY).keySet());
            }
        }
        return entries;
    }

    @Test
    void fiveSessionsOfOneUserAcrossTwoScopesAreAllGoneWithTheirIndexEntries() {
        String user = "carol-" + TestStores.newId();
        List<StoredSession> inShop = new ArrayList<>();
        List<StoredSession> inBlog = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            inShop.add(createIn(shop, user));
        }
        for (int i = 0; i < 2; i++) {
            inBlog.add(createIn(blog, user));
        }
        StoredSession someoneElse = createIn(shop, "dave-" + TestStores.newId());
        assertEquals(5, shop.findByUser(user).size());
        assertEquals(5, indexEntriesOf(user).size());

        assertEquals(5, shop.revokeAll(user));

        inShop.forEach(session -> assertTrue(shop.load(session.record().id()).isEmpty()));
        inBlog.forEach(session -> assertTrue(blog.load(session.record().id()).isEmpty()));
        assertEquals(List.of(), indexEntriesOf(user));
        assertTrue(shop.load(someoneElse.record().id()).isPresent());
        assertEquals(1, shop.findByUser(someoneElse.record().login().orElseThrow().name()).size());
    }

    /**
     * Issue #10 item 5: with a lifetime of 60 s and a touch every 5 s, the session lives on past its index
     * entry's write plus 60 s only if nothing enforces the lifetime. It is enforced on every read now, so
     * the session ends at its creation plus 60 s; before that, revokeAll finds it however often it was touched.
     */
    @Test
    void aSessionTouchedPastItsMaximumLifetimeEndsThenAndIsRevocableUntilThen(EmbeddedHBase server,
            TestNamespace namespace) {
        StoreSettings shortLived = TestStores.settings(server, namespace).set(Setting.TABLE, namespace.table("short_lived"))
                .set(Setting.INDEX_TABLE, namespace.table("short_lived_index")).set(Setting.MAX_LIFETIME_SECONDS, 60L)
                .set(Setting.TOUCH_INTERVAL_SECONDS, 1L).build();
        MutableClock clock = new MutableClock(Instant.now());
        try (SessionStore store = TestStores.open(shortLived, clock)) {
            String revokedUser = "lena-" + TestStores.newId();
            String activeUser = "mona-" + TestStores.newId();
            StoredSession revoked = loggedIn(store, clock, revokedUser);
            StoredSession active = loggedIn(store, clock, activeUser);
            for (int second = 5; second <= 55; second += 5) {
                clock.advance(Duration.ofSeconds(5));
                for (StoredSession session : List.of(revoked, active)) {
                    StoredSession loaded = store.load(session.record().id()).orElseThrow();
                    assertEquals(SaveResult.TOUCHED, store.save(loaded, loaded.record().withLastAccessTime(clock.instant())));
                }
            }
            assertEquals(1, store.revokeAll(revokedUser), "found after eleven touches, 55 s after its login");
            assertTrue(store.load(revoked.record().id()).isEmpty());

            assertTrue(store.load(active.record().id()).isPresent());
            clock.advance(Duration.ofSeconds(5));
            assertTrue(store.load(active.record().id()).isEmpty(), "past its maximum lifetime however active");
            assertEquals(0, store.revokeAll(activeUser));
        }
    }

    private static StoredSession loggedIn(SessionStore store, MutableClock clock, String user) {
        StoredSession session = store.newSession(SessionRecord.created(TestStores.newId(), clock.instant(),
                Duration.ofMinutes(30)).withLogin(new SessionPrincipal(user, List.of(), "FORM")), false);
        store.save(session, session.record());
        return session;
    }

    /**
     * Issue #10 item 5: revokeAll removes only the entries of sessions it deleted. A login paused between
     * its index entry and its session write keeps its entry, so it can be revoked once it completes.
     */
    @Test
    void aLoginBetweenItsIndexEntryAndItsSessionWriteStaysRevocable() {
        String user = "erin-" + TestStores.newId();
        StoredSession real = createIn(shop, user);
        String pausedId = TestStores.newId();
        Instant pausedCreation = CLOCK.instant().plusSeconds(1);
        hbase.put(settings.get(Setting.INDEX_TABLE), new Put(indexRowKey(user, pausedCreation))
                .addColumn(HBaseSessionRows.FAMILY, TestStores.rowKey("/shop", pausedId), new byte[0]));
        assertEquals(2, indexEntriesOf(user).size());

        assertEquals(1, shop.revokeAll(user));
        assertEquals(1, indexEntriesOf(user).size(), "the paused login's entry stays");
        assertTrue(shop.load(real.record().id()).isEmpty());

        StoredSession completed = shop.newSession(new SessionRecord(pausedId, pausedCreation, pausedCreation,
                Duration.ofMinutes(30), java.util.Optional.of(new SessionPrincipal(user, List.of(), "FORM"))), false);
        shop.save(completed, completed.record());
        assertEquals(1, shop.revokeAll(user));
        assertTrue(shop.load(pausedId).isEmpty());
    }

    /** Two deployments with their own sessions table and a shared index table do not wipe each other's entries. */
    @Test
    void storesWithOtherTablesButTheSameIndexLeaveEachOthersEntries(EmbeddedHBase server, TestNamespace namespace) {
        StoreSettings other = settings.toBuilder().set(Setting.TABLE, namespace.table("other_sessions")).build();
        try (SessionStore otherDeployment = TestStores.open(other, CLOCK)) {
            String user = "gail-" + TestStores.newId();
            StoredSession here = createIn(shop, user);
            StoredSession there = createIn(otherDeployment, user);

            assertEquals(1, shop.revokeAll(user));
            assertTrue(otherDeployment.load(there.record().id()).isPresent());
            assertEquals(1, otherDeployment.revokeAll(user), "its entry survived the other deployment's revocation");
            assertTrue(shop.load(here.record().id()).isEmpty());
        }
    }

    /**
     * A user name may contain '|', and two names can share the 2 salt bytes: then one's row key starts with
     * the other's prefix. Only the name parsed from the row tells them apart.
     */
    @Test
    void usersSharingSaltAndPrefixAreNotConfused() {
        String user = "frank-" + TestStores.newId().substring(0, 6);
        String lookalike = lookalikeOf(user);
        StoredSession mine = createIn(shop, user);
        StoredSession theirs = createIn(shop, lookalike);

        assertEquals(1, shop.findByUser(user).size());
        assertEquals(1, shop.revokeAll(user));
        assertTrue(shop.load(mine.record().id()).isEmpty());
        assertTrue(shop.load(theirs.record().id()).isPresent());
    }

    /** Issue #11 item 4: a name the index cannot hold exactly fails that save clearly, it is not silently unrevocable. */
    @Test
    void aUserNameTheIndexCannotHoldIsRefused() {
        for (String bad : List.of("x".repeat(40_000), "broken\uD800surrogate")) {
            StoredSession session = shop.newSession(SessionRecord.created(TestStores.newId(), CLOCK.instant(),
                    Duration.ofMinutes(30)).withLogin(new SessionPrincipal(bad, List.of(), "FORM")), false);
            SessionStoreException e = org.junit.jupiter.api.Assertions.assertThrows(SessionStoreException.class,
                    () -> shop.save(session, session.record()));
            assertTrue(e.getMessage().contains("index"), e.getMessage());
            assertTrue(shop.load(session.record().id()).isEmpty());
        }
    }

    private static byte[] indexRowKey(String user, Instant creationTime) {
        byte[] name = user.getBytes(StandardCharsets.UTF_8);
        return Bytes.add(Arrays.copyOf(SessionKey.sha256(name), 2), Bytes.add(name, new byte[] {'|'}),
                Bytes.toBytes(Long.MAX_VALUE - creationTime.toEpochMilli()));
    }

    /** {@code user + "|" + n} whose salt equals the user's (about 65,000 hashes to find). */
    private static String lookalikeOf(String user) {
        byte[] salt = Arrays.copyOf(SessionKey.sha256(user.getBytes(StandardCharsets.UTF_8)), 2);
        for (int n = 0; ; n++) {
            String candidate = user + "|" + n;
            if (Arrays.equals(salt, Arrays.copyOf(SessionKey.sha256(candidate.getBytes(StandardCharsets.UTF_8)), 2))) {
                return candidate;
            }
        }
    }
}
