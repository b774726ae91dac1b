package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Mutation;
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
 * {@code expiryEvents} against a real HBase: the index is written only when a session's end moves into
 * another bucket, a sweep ends each over session exactly once across sweepers, skips sessions that were
 * touched, takes over a bucket whose sweeper died once its lease ends, and drops entries an attacker wrote.
 * Each test uses a key scope of its own: the expiry table is shared, its rows are per scope.
 */
@ExtendWith(HBaseExtension.class)
class ExpiryEventsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    /** 10 s of event delay: buckets of 5 s, so the test clock's start (on a whole minute) begins a bucket. */
    private static final long DELAY_SECONDS = 10;
    private static final AtomicInteger SCOPES = new AtomicInteger();

    private static EmbeddedHBase server;
    private static TestNamespace namespace;
    private static HBaseInspector hbase;

    @BeforeAll
    static void connect(EmbeddedHBase embedded, TestNamespace testNamespace, Configuration configuration) {
        server = embedded;
        namespace = testNamespace;
        hbase = new HBaseInspector(configuration);
    }

    @AfterAll
    static void disconnect() throws Exception {
        hbase.close();
    }

    private static StoreSettings.Builder settings() {
        return TestStores.settings(server, namespace)
                .set(Setting.KEY_SCOPE, "/events-" + SCOPES.incrementAndGet())
                .set(Setting.EXPIRY_EVENTS, true)
                .set(Setting.EXPIRY_TABLE, namespace.table("session_expiry"))
                .set(Setting.EXPIRY_EVENT_DELAY_SECONDS, DELAY_SECONDS)
                .set(Setting.TOUCH_INTERVAL_SECONDS, 1L);
    }

    private static List<String> create(SessionStore store, MutableClock clock, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(TestStores.create(store, clock.instant(), TIMEOUT, Map.of("tag", "session " + i)).record().id());
        }
        return ids;
    }

    private static Map<String, Object> tagsOf(List<StoredSession> ended) {
        Map<String, Object> tags = new HashMap<>();
        ended.forEach(session -> tags.put(session.record().id(), session.attributes().get("tag")));
        return tags;
    }

    @Test
    void eachIdleSessionEndsOnceWithItsAttributes() {
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(settings().build(), clock)) {
            List<String> ids = create(store, clock, 50);

            clock.advance(TIMEOUT.minusSeconds(1));
            assertEquals(List.of(), store.sweepExpired(), "no session is over yet");
            clock.advance(Duration.ofSeconds(1));
            Map<String, Object> ended = tagsOf(store.sweepExpired());

            assertEquals(Set.copyOf(ids), ended.keySet());
            for (int i = 0; i < ids.size(); i++) {
                assertEquals("session " + i, ended.get(ids.get(i)), "the event carries the session's attributes");
                assertTrue(store.load(ids.get(i)).isEmpty(), "an ended session is deleted");
            }
            assertEquals(List.of(), store.sweepExpired(), "a session ends once");
            assertEquals(50, store.counters().get(StoreCounter.EXPIRED_BY_SWEEP));
        }
    }

    /** Issue #28: a container's sweep of a key scope leaves Shiro's sessions of that scope to Shiro's sweep. */
    @Test
    void aSweepEndsOnlyTheSessionsOfItsOwnSessionSystem() {
        MutableClock clock = new MutableClock(TestStores.START);
        StoreSettings settings = settings().build();
        ClassLoader loader = getClass().getClassLoader();
        try (SessionStore jetty = SessionStores.open(settings, new Webapp(loader, Container.JETTY), clock);
                SessionStore shiro = SessionStores.open(settings, new Webapp(loader, Container.SHIRO), clock)) {
            List<String> jettys = create(jetty, clock, 2);
            List<String> shiros = create(shiro, clock, 3);
            clock.advance(TIMEOUT);

            assertEquals(Set.copyOf(jettys), tagsOf(jetty.sweepExpired()).keySet());
            assertEquals(Set.copyOf(shiros), tagsOf(shiro.sweepExpired()).keySet(), "Shiro's sessions were ended by Jetty");
        }
    }

    @Test
    void aSessionTouchedAfterItsEntryWasWrittenEndsOnlyAtItsNewEnd() {
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(settings().build(), clock)) {
            List<String> ids = create(store, clock, 2);
            clock.advance(Duration.ofSeconds(20));
            StoredSession touched = store.load(ids.get(0)).orElseThrow();
            assertEquals(SaveResult.TOUCHED, store.save(touched, touched.record().withLastAccessTime(clock.instant())));

            clock.advance(Duration.ofSeconds(10));
            assertEquals(Set.of(ids.get(1)), tagsOf(store.sweepExpired()).keySet(),
                    "the touched session is read, found live and skipped");
            clock.advance(Duration.ofSeconds(19));
            assertEquals(List.of(), store.sweepExpired());
            clock.advance(Duration.ofSeconds(1));
            assertEquals(Set.of(ids.get(0)), tagsOf(store.sweepExpired()).keySet());
        }
    }

    @Test
    void aSessionTouchedBetweenTheSweepersReadAndItsDeleteIsNotEnded() {
        MutableClock clock = new MutableClock(TestStores.START);
        StoreSettings scope = settings().build();
        AtomicReference<Runnable> beforeNextEnd = new AtomicReference<>();
        try (SessionStore requests = TestStores.open(scope, clock);
                SessionStore sweeper = HBaseSessions.open(scope, TestStores.WEBAPP, clock,
                        new BeforeConditionalEnd(scope.get(Setting.TABLE), beforeNextEnd))) {
            String id = create(requests, clock, 1).get(0);
            clock.advance(TIMEOUT.minusSeconds(1));
            StoredSession inFlight = requests.load(id).orElseThrow();
            clock.advance(Duration.ofSeconds(1));
            // A request that began before the end saves its touch after the sweeper read the session as over.
            beforeNextEnd.set(() -> assertEquals(SaveResult.TOUCHED,
                    requests.save(inFlight, inFlight.record().withLastAccessTime(clock.instant().minusSeconds(1)))));

            assertEquals(List.of(), sweeper.sweepExpired(), "the touched session is not ended");
            assertTrue(requests.load(id).isPresent());
            clock.advance(TIMEOUT);
            assertEquals(Set.of(id), tagsOf(sweeper.sweepExpired()).keySet(), "it ends at its new end");
        }
    }

    /** Runs an action just before the next conditional delete reaches the sessions table. */
    private static final class BeforeConditionalEnd implements HBaseSessions.TableView {

        private final String sessionsTable;
        private final AtomicReference<Runnable> action;

        BeforeConditionalEnd(String sessionsTable, AtomicReference<Runnable> action) {
            this.sessionsTable = sessionsTable;
            this.action = action;
        }

        @Override
        @SuppressWarnings("unchecked")
        public AsyncTable<AdvancedScanResultConsumer> apply(AsyncTable<AdvancedScanResultConsumer> table) {
            if (!table.getName().getNameAsString().equals(sessionsTable)) {
                return table;
            }
            return (AsyncTable<AdvancedScanResultConsumer>) Proxy.newProxyInstance(AsyncTable.class.getClassLoader(),
                    new Class<?>[] {AsyncTable.class}, (proxy, method, args) -> {
                        if (args != null && args.length == 1 && args[0] instanceof CheckAndMutate check
                                && check.getAction() instanceof Mutation end && MutationRecorder.isSessionEnd(end)) {
                            Runnable pending = action.getAndSet(null);
                            if (pending != null) {
                                pending.run();
                            }
                        }
                        try {
                            return method.invoke(table, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    @Test
    void aWriteEntersItsSessionOnlyWhenItsEndMovesToAnotherBucket() {
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(settings().build(), clock)) {
            String id = create(store, clock, 1).get(0);
            assertEquals(1, store.counters().get(StoreCounter.EXPIRY_ENTRIES), "the new session is entered");
            for (int second = 1; second <= 4; second++) {
                clock.advance(Duration.ofSeconds(1));
                touch(store, id, clock.instant());
            }
            assertEquals(4, store.counters().get(StoreCounter.TOUCHES));
            assertEquals(2, store.counters().get(StoreCounter.EXPIRY_ENTRIES),
                    "ends at +31 to +34 s share the bucket due at +35 s: one entry");
            clock.advance(Duration.ofSeconds(2));
            touch(store, id, clock.instant());
            assertEquals(3, store.counters().get(StoreCounter.EXPIRY_ENTRIES), "an end at +36 s is in the next bucket");

            clock.advance(Duration.ofMillis(100));
            StoredSession readOnly = store.load(id).orElseThrow();
            assertEquals(SaveResult.UNCHANGED, store.save(readOnly, readOnly.record()));
            assertEquals(3, store.counters().get(StoreCounter.EXPIRY_ENTRIES), "a request that writes nothing enters nothing");
        }
    }

    private static void touch(SessionStore store, String id, Instant now) {
        StoredSession session = store.load(id).orElseThrow();
        assertEquals(SaveResult.TOUCHED, store.save(session, session.record().withLastAccessTime(now)));
    }

    @Test
    void withoutExpiryEventsNothingIsWrittenOrSwept() throws Exception {
        String table = namespace.table("no_expiry_events");
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(TestStores.settings(server, namespace)
                .set(Setting.EXPIRY_TABLE, table).build(), clock)) {
            create(store, clock, 3);
            clock.advance(TIMEOUT.multipliedBy(2));
            assertEquals(List.of(), store.sweepExpired());
            assertEquals(0, store.counters().get(StoreCounter.EXPIRY_ENTRIES));
        }
        assertFalse(hbase.admin().tableExists(TableName.valueOf(table)), "no expiry table is created");
    }

    @Test
    void concurrentSweepersEndEachSessionExactlyOnce() {
        MutableClock clock = new MutableClock(TestStores.START);
        StoreSettings shared = settings().build();
        try (SessionStore first = TestStores.open(shared, clock); SessionStore second = TestStores.open(shared, clock)) {
            List<String> ids = create(first, clock, 200);
            clock.advance(TIMEOUT.plusSeconds(DELAY_SECONDS));

            CompletableFuture<List<StoredSession>> one = CompletableFuture.supplyAsync(first::sweepExpired);
            CompletableFuture<List<StoredSession>> other = CompletableFuture.supplyAsync(second::sweepExpired);
            List<String> ended = new ArrayList<>();
            one.join().forEach(session -> ended.add(session.record().id()));
            other.join().forEach(session -> ended.add(session.record().id()));

            assertEquals(200, ended.size(), "no session ends twice");
            assertEquals(Set.copyOf(ids), new HashSet<>(ended));
        }
    }

    @Test
    void aBucketWhoseSweeperDiedIsSweptOnceItsLeaseEnds() throws Exception {
        MutableClock clock = new MutableClock(TestStores.START);
        StoreSettings scope = settings().set(Setting.LEASE_TIMEOUT_SECONDS, 2L).build();
        try (SessionStore store = TestStores.open(scope, clock)) {
            List<String> ids = create(store, clock, 20);
            clock.advance(TIMEOUT);
            // A sweeper that claimed every bucket and was killed: its leases are left to time out.
            for (byte[] bucket : bucketRows(scope.get(Setting.KEY_SCOPE))) {
                Put lease = new Put(bucket).addColumn(HBaseSessionRows.FAMILY, Bytes.toBytes("lease"),
                        Bytes.toBytes("killed-sweeper"));
                lease.setTTL(2_000);
                hbase.put(namespace.table("session_expiry"), lease);
            }
            assertEquals(List.of(), store.sweepExpired(), "held buckets are left to their sweeper");

            Set<String> ended = new HashSet<>();
            long giveUp = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ended.size() < ids.size() && System.nanoTime() < giveUp) {
                Thread.sleep(250);
                store.sweepExpired().forEach(session -> ended.add(session.record().id()));
            }
            assertEquals(Set.copyOf(ids), ended);
        }
    }

    @Test
    void entriesThatNameNoSessionOfTheScopeAreDroppedAndEndNothing() {
        MutableClock clock = new MutableClock(TestStores.START);
        StoreSettings scope = settings().build();
        try (SessionStore store = TestStores.open(scope, clock)) {
            String victim = create(store, clock, 1).get(0);
            String other = create(store, clock, 1).get(0);
            List<byte[]> buckets = bucketRows(scope.get(Setting.KEY_SCOPE));
            String table = namespace.table("session_expiry");
            byte[] victimRow = TestStores.rowKey(scope.get(Setting.KEY_SCOPE), victim);
            for (byte[] bucket : buckets) {
                Put hostile = new Put(bucket)
                        // Someone else's id under the victim's row: it does not hash to the row.
                        .addColumn(HBaseSessionRows.FAMILY, victimRow, other.getBytes(StandardCharsets.UTF_8))
                        // A row key that no session has, with bytes that are no id.
                        .addColumn(HBaseSessionRows.FAMILY, new byte[32], new byte[] {(byte) 0xFF, 0, '\n'})
                        // Neither an entry nor the lease.
                        .addColumn(HBaseSessionRows.FAMILY, Bytes.toBytes("x"), new byte[1000]);
                hbase.put(table, hostile);
            }
            clock.advance(TIMEOUT);

            Set<String> ended = tagsOf(store.sweepExpired()).keySet();

            assertEquals(Set.of(other), ended, "an entry whose id is not its row's ends nothing");
            assertTrue(store.counters().get(StoreCounter.EXPIRY_ENTRIES_REFUSED) >= 2);
            assertEquals(List.of(), store.sweepExpired(), "refused entries are dropped, not read again");
        }
    }

    /** Issue #27: under hmac the ids were signed, not encrypted: whoever could read the table could take the sessions over. */
    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void withAKeyTheStoredIdsAreUnreadableAndStillEnd(StateProtection protection, @TempDir Path work) throws Exception {
        Path keys = Files.write(work.resolve("keys"), List.of(StateSealTest.newKey()));
        MutableClock clock = new MutableClock(TestStores.START);
        try (SessionStore store = TestStores.open(settings().set(Setting.STATE_PROTECTION, protection)
                .set(Setting.STATE_KEY_FILE, keys).build(), clock)) {
            List<String> ids = create(store, clock, 5);
            for (Result bucket : hbase.scan(namespace.table("session_expiry"))) {
                for (byte[] value : bucket.getFamilyMap(HBaseSessionRows.FAMILY).values()) {
                    for (String id : ids) {
                        assertFalse(Bytes.toString(value).contains(id), "a session id is readable in the expiry index");
                    }
                }
            }
            clock.advance(TIMEOUT);
            assertEquals(Set.copyOf(ids), tagsOf(store.sweepExpired()).keySet());
        }
    }

    /** The bucket rows of {@code keyScope}: after the salt byte, the first 8 bytes of the scope's SHA-256. */
    private static List<byte[]> bucketRows(String keyScope) {
        byte[] scopeHash = Arrays.copyOf(SessionKey.sha256(keyScope.getBytes(StandardCharsets.UTF_8)), 8);
        List<byte[]> rows = new ArrayList<>();
        for (Result row : hbase.scan(namespace.table("session_expiry"))) {
            if (Arrays.equals(row.getRow(), 1, 9, scopeHash, 0, 8)) {
                rows.add(row.getRow());
            }
        }
        return rows;
    }
}
