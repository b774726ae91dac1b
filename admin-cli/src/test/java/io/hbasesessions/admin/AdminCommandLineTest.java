package io.hbasesessions.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.ForgedRows;
import io.hbasesessions.store.HBaseInspector;
import io.hbasesessions.store.RelocatedGadgets;
import io.hbasesessions.store.SessionPrincipal;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StateProtection;
import io.hbasesessions.store.StoreMBean;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.TestStores;
import io.hbasesessions.store.WarClassLoaderFixture;
import io.hbasesessions.store.Webapp;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command of {@code hbase-sessions} against the real embedded HBase the other tests of this JVM share,
 * run in-process through {@link AdminMain#run} exactly as the launcher runs it: sessions are created through
 * the real store, bad input is real bytes in HBase.
 */
@ExtendWith(HBaseExtension.class)
class AdminCommandLineTest {

    private static final Duration HALF_AN_HOUR = Duration.ofMinutes(30);
    private static EmbeddedHBase server;
    private static TestNamespace namespace;
    private static HBaseInspector hbase;
    private static StoreSettings settings;
    private static SessionStore store;

    @TempDir
    static Path work;

    /** What one run printed and returned. */
    record Run(int exitCode, String out, String err, long millis) {
    }

    @BeforeAll
    static void open(EmbeddedHBase shared, TestNamespace testNamespace, Configuration configuration) {
        server = shared;
        namespace = testNamespace;
        hbase = new HBaseInspector(configuration);
        settings = TestStores.settings(server, namespace).build();
        store = TestStores.open(settings);
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
        hbase.close();
    }

    @Test
    void helpListsAnOptionForEverySettingAndTheExitCodes() {
        for (String command : List.of("create-tables", "verify", "stats", "inspect", "revoke", "sweep-index", "health")) {
            Run help = run("", command, "--help");
            assertEquals(0, help.exitCode(), help.err());
            for (Setting<?> setting : Setting.all()) {
                // createTable is the command's to decide: only create-tables creates.
                assertEquals(setting != Setting.CREATE_TABLE, help.out().contains(SettingOptions.optionName(setting)
                        + "="), command + ": " + SettingOptions.optionName(setting));
            }
            assertTrue(help.out().contains("--json"), command);
            assertTrue(help.out().contains("Exit codes:") && help.out().contains("inspect: the row holds cells"),
                    help.out());
        }
        assertEquals("--zookeeper-quorum", SettingOptions.optionName(Setting.ZOOKEEPER_QUORUM));
        assertEquals("--hbase-site", SettingOptions.optionName(Setting.HBASE_SITE));
        Run top = run("", "--help");
        assertTrue(top.out().contains("Exit codes (every command):"), top.out());
    }

    @Test
    void badUsageExitsWith2AndSaysWhy() {
        Run unknown = run("", "verify", "--no-such-option");
        assertEquals(2, unknown.exitCode());
        Run invalid = run("", "verify", "--zookeeper-quorum", "127.0.0.1:1", "--regions", "999");
        assertEquals(2, invalid.exitCode());
        assertTrue(invalid.err().contains("regions='999' is not valid: must be between 1 and 256"), invalid.err());
        Run asJson = run("", "verify", "--zookeeper-quorum", "127.0.0.1:1", "--regions", "0", "--json");
        assertEquals(2, asJson.exitCode());
        assertTrue(asJson.out().startsWith("{\"error\":\"Invalid hbase-sessions configuration") || asJson.out()
                .startsWith("{\"error\":\"Setting regions='0' is not valid"), asJson.out());
        assertTrue(asJson.out().strip().endsWith(",\"exitCode\":2}"), asJson.out());
        Run none = run("", "health");
        assertEquals(2, none.exitCode());
        assertTrue(none.err().contains("set zookeeperQuorum"), none.err());
    }

    @Test
    void createTablesDryRunPrintsSplitPointsAndCreatesNothingThenCreatesAndVerifyAgrees() throws Exception {
        List<String> tables = List.of("--table", namespace.table("created"), "--index-table", namespace.table("created_idx"),
                "--regions", "4");
        Run dryRun = runOnHBase("", with(tables, "create-tables", "--dry-run"));
        assertEquals(0, dryRun.exitCode(), dryRun.err());
        assertTrue(dryRun.out().contains("splitKeys: 40 80 c0"), dryRun.out());
        assertTrue(dryRun.out().contains("create '" + namespace.table("created") + "', {NAME => 's'"), dryRun.out());
        assertTrue(dryRun.out().contains("TTL => 604800"), dryRun.out());

        Run missing = runOnHBase("", with(tables, "verify"));
        assertEquals(1, missing.exitCode(), missing.out() + missing.err());
        assertTrue(missing.out().contains("Table '" + namespace.table("created") + "' does not exist"), missing.out());

        Run created = runOnHBase("", with(tables, "create-tables", "--json"));
        assertEquals(0, created.exitCode(), created.err());
        assertTrue(created.out().contains("\"created\":[\"" + namespace.table("created") + "\",\""
                + namespace.table("created_idx") + "\"]"), created.out());
        try (Admin admin = hbase.admin()) {
            assertEquals(4, admin.getRegions(TableName.valueOf(namespace.table("created"))).size());
        }

        Run verified = runOnHBase("", with(tables, "verify", "--json"));
        assertEquals(0, verified.exitCode(), verified.out());
        assertEquals("{\"schemaOk\":true,\"problems\":[]}", verified.out().strip());

        Run differs = runOnHBase("", with(tables, "verify", "--max-lifetime-seconds", "3600"));
        assertEquals(1, differs.exitCode(), differs.out());
        assertTrue(differs.out().contains("TTL is 604800, needs 3600")
                && differs.out().contains("alter '" + namespace.table("created") + "'"), differs.out());
        Run again = runOnHBase("", with(tables, "create-tables", "--max-lifetime-seconds", "3600"));
        assertEquals(4, again.exitCode(), again.out());
        assertTrue(again.err().contains("TTL is 604800, needs 3600"), again.err());
    }

    @Test
    void inspectByIdOnStdinOrFileOrKeyHashShowsNamesClassesAndSizesButValuesOnlyWhenAsked() throws Exception {
        StoredSession session = store.newSession(SessionRecord.created(TestStores.newId(), Instant.now(), HALF_AN_HOUR)
                .withLogin(new SessionPrincipal("olga", List.of("admin"), "FORM")), false);
        session.attributes().putAll(Map.of("cart", new ArrayList<>(List.of("book", "pen")), "secret", "s3cr3t-value"));
        store.save(session, session.record());
        String id = session.record().id();

        Run byStdin = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop");
        assertEquals(0, byStdin.exitCode(), byStdin.err());
        assertTrue(byStdin.out().contains("login: olga") && byStdin.out().contains("indexedUser: olga"), byStdin.out());
        assertTrue(byStdin.out().contains("name=cart, bytes=") && byStdin.out().contains("class=java.util.ArrayList"),
                byStdin.out());
        assertTrue(byStdin.out().contains("name=secret") && byStdin.out().contains("class=java.lang.String"));
        assertFalse(byStdin.out().contains("s3cr3t-value"), "values only with --values");
        assertFalse(byStdin.out().contains(id) || byStdin.err().contains(id), "the id is never printed");

        Path idFile = Files.writeString(work.resolve("id"), id + ".jvm1\n");
        Run byFile = runOnHBase("", "inspect", "--key-scope", "/shop", "--id-file", idFile.toString(), "--values",
                "--state-protection", "none", "--json");
        assertEquals(0, byFile.exitCode(), byFile.err());
        assertTrue(byFile.out().contains("\"value\":\"s3cr3t-value\"") && byFile.out().contains("\"value\":\"[book, pen]\""),
                byFile.out());

        Run byHash = runOnHBase("", "inspect", "--key-hash", ForgedRows.rowKeyHex("/shop", id));
        assertEquals(byStdin.out(), byHash.out(), "the same row, by its key");
        assertEquals(0, byHash.exitCode());
    }

    @Test
    void inspectRefusesMalformedInputWithoutEchoingItAndAnUnknownIdIsExit1() {
        String hostile = "../../etc/passwd; rm -rf / \u001b[31m";
        Run malformed = runOnHBase(hostile + "\n", "inspect", "--key-scope", "/shop");
        assertEquals(2, malformed.exitCode());
        assertTrue(malformed.err().contains("That is not a session id"), malformed.err());
        assertFalse(malformed.err().contains("passwd") || malformed.err().contains("\u001b"), malformed.err());

        Run empty = runOnHBase("", "inspect", "--key-scope", "/shop");
        assertEquals(2, empty.exitCode());
        assertTrue(empty.err().contains("No session id"), empty.err());

        Run overlong = runOnHBase("A".repeat(100_000), "inspect", "--key-scope", "/shop");
        assertEquals(2, overlong.exitCode(), overlong.err());

        Run noScope = runOnHBase(TestStores.newId() + "\n", "inspect");
        assertEquals(2, noScope.exitCode());
        assertTrue(noScope.err().contains("needs --key-scope"), noScope.err());

        Run badHash = runOnHBase("", "inspect", "--key-hash", "xyz");
        assertEquals(2, badHash.exitCode());
        assertTrue(badHash.err().contains("64 hex digits"), badHash.err());

        Run unknown = runOnHBase(TestStores.newId() + "\n", "inspect", "--key-scope", "/shop", "--json");
        assertEquals(1, unknown.exitCode());
        assertTrue(unknown.out().contains("\"found\":false"), unknown.out());
    }

    @Test
    void inspectOfACorruptForgedOrHostileRowIsAClearAnswerNotACrash() throws Exception {
        String corrupt = TestStores.newId();
        ForgedRows.garbageState(hbase, settings.get(Setting.TABLE), "/shop", corrupt);
        Run garbage = runOnHBase(corrupt + "\n", "inspect", "--key-scope", "/shop");
        assertEquals(5, garbage.exitCode(), garbage.out() + garbage.err());
        assertTrue(garbage.out().contains("unreadable: "), garbage.out());
        assertFalse(garbage.out().contains("\u0000") || garbage.out().contains("DROP TABLE\n"), garbage.out());

        // A session written without the nodes' key is forged under stateProtection: refused before any decoding.
        String unsealed = TestStores.newId();
        ForgedRows.sessionWithAHostileAttribute(hbase, settings.get(Setting.TABLE), "/shop", unsealed);
        Run forged = runOnHBase(unsealed + "\n", "inspect", "--key-scope", "/shop", "--state-protection", "hmac",
                "--state-key-file", keyFile().toString(), "--json");
        assertEquals(5, forged.exitCode(), forged.out() + forged.err());
        assertTrue(forged.out().contains("\"unreadable\":\"state cell "), forged.out());

        String hostile = TestStores.newId();
        ForgedRows.sessionWithAHostileAttribute(hbase, settings.get(Setting.TABLE), "/shop", hostile);
        Run claim = runOnHBase(hostile + "\n", "inspect", "--key-scope", "/shop", "--values", "--state-protection", "none",
                "--json");
        assertEquals(0, claim.exitCode(), claim.out() + claim.err());
        assertTrue(claim.out().contains("{\"name\":\"user\",\"bytes\":"), claim.out());
        assertTrue(claim.out().contains("\"value\":\"alice\""), claim.out());
        assertTrue(claim.out().contains("{\"name\":\"claim\",\"bytes\":") && claim.out().contains("\"class\":\"[B\","
                + "\"undecodable\":"), claim.out());
    }

    /**
     * Issue #27: inspect decoded every attribute even without --values, with this tool's class path (which holds
     * the relocated Commons Collections): looking at a suspicious session ran the forger's command.
     */
    @Test
    void inspectingAForgedGadgetChainRunsNothingWithOrWithoutValues() throws Exception {
        String id = TestStores.newId();
        Path marker = RelocatedGadgets.markerIn(work.resolve("markers"), "inspected");
        ForgedRows.sessionWithAGadgetChain(hbase, settings.get(Setting.TABLE), "/shop", id, marker);

        Run names = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop");
        assertFalse(Files.exists(marker), "inspect ran the chain's command");
        assertEquals(0, names.exitCode(), names.err());
        assertTrue(names.out().contains("name=cart, bytes=") && names.out().contains("class=java.util.PriorityQueue"),
                names.out());

        Run values = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop", "--values", "--state-protection", "none");
        assertFalse(Files.exists(marker), "inspect --values ran the chain's command");
        assertEquals(0, values.exitCode(), values.err());
        assertTrue(values.out().contains("value=alice") && values.out().contains("is one of the classes hbase-sessions "
                + "ships"), values.out());
    }

    /** Values are decoded only from cells the fleet's key vouches for, or when the operator says the fleet has none. */
    @Test
    void valuesAreDecodedOnlyUnderTheFleetsKeyOrWhenToldTheFleetRunsWithoutProtection() throws Exception {
        String unprotected = createdWith(store, "cart", "book");
        Run refused = runOnHBase(unprotected + "\n", "inspect", "--key-scope", "/shop", "--values");
        assertEquals(2, refused.exitCode(), refused.out());
        assertTrue(refused.err().contains("--values decodes bytes that whoever can write the table may have written"),
                refused.err());
        Run told = runOnHBase(unprotected + "\n", "inspect", "--key-scope", "/shop", "--values", "--state-protection",
                "none");
        assertTrue(told.exitCode() == 0 && told.out().contains("value=book"), told.out() + told.err());

        Path keys = keyFile();
        try (SessionStore signing = TestStores.open(settings.toBuilder().set(Setting.STATE_PROTECTION, StateProtection.HMAC)
                .set(Setting.STATE_KEY_FILE, keys).build())) {
            String signed = createdWith(signing, "cart", "pen");
            Run vouched = runOnHBase(signed + "\n", "inspect", "--key-scope", "/shop", "--values", "--state-protection",
                    "hmac", "--state-key-file", keys.toString());
            assertTrue(vouched.exitCode() == 0 && vouched.out().contains("value=pen"), vouched.out() + vouched.err());
        }
    }

    /** With --values only the JDK's classes are known, unless the operator names the application's. */
    @Test
    void applicationClassesAreKnownOnlyFromTheApplicationClasspathGiven() throws Exception {
        try (WarClassLoaderFixture.WarLoader war = WarClassLoaderFixture.warLoader(work.resolve("war"));
                SessionStore warStore = SessionStores.open(settings, new Webapp(war, Container.NONE))) {
            String id = createdWith(warStore, "item", WarClassLoaderFixture.newCartItem(war, "book", 2));
            Run jdkOnly = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop", "--values", "--state-protection",
                    "none");
            assertTrue(jdkOnly.out().contains("class=war.CartItem") && jdkOnly.out().contains("class not found: "
                    + "war.CartItem"), jdkOnly.out());
            Run withTheApplication = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop", "--values",
                    "--state-protection", "none", "--application-classpath", work.resolve("war/classes").toString());
            assertTrue(withTheApplication.out().contains("value=book x2"), withTheApplication.out());
        }
    }

    /** A login name and an attribute name are whatever the forger wrote: ESC, BEL, CR rewrote the operator's terminal. */
    @Test
    void everyTextFromTheCellIsPrintedWithItsControlCharactersEscaped() {
        String id = TestStores.newId();
        String forged = "\u001b]0;owned\u0007\u001b[2K\radmin\u202e\u0085";
        ForgedRows.sessionWithTextsOfTheForgersChoosing(hbase, settings.get(Setting.TABLE), "/shop", id, forged);

        Run text = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop", "--values", "--state-protection", "none");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().chars().noneMatch(c -> Character.isISOControl(c) && c != '\n'
                || Character.getType(c) == Character.FORMAT), "a control character reached the terminal: " + text.out());
        String escaped = "\\u001b]0;owned\\u0007\\u001b[2K\\u000dadmin\\u202e\\u0085";
        assertTrue(text.out().contains("login: " + escaped), text.out());
        assertTrue(text.out().contains("name: " + escaped) || text.out().contains("name=" + escaped), text.out());
        Run json = runOnHBase(id + "\n", "inspect", "--key-scope", "/shop", "--json");
        assertTrue(json.out().contains("\"login\":\"\\u001b]0;owned\\u0007"), json.out());
    }

    /** A session stored through {@code into} with one attribute; returns its id. */
    private static String createdWith(SessionStore into, String name, Object value) {
        StoredSession session = into.newSession(SessionRecord.created(TestStores.newId(), Instant.now(), HALF_AN_HOUR),
                false);
        session.attributes().put(name, value);
        into.save(session, session.record());
        return session.record().id();
    }

    @Test
    void revokeEndsEverySessionOfTheUserThroughTheStoreAndPrintsThem() {
        StoredSession first = login("ivy");
        StoredSession second = login("ivy");
        StoredSession other = login("bob");

        Run revoked = runOnHBase("", "revoke", "ivy", "--json");
        assertEquals(0, revoked.exitCode(), revoked.err());
        assertTrue(revoked.out().startsWith("{\"user\":\"ivy\",\"revoked\":2,\"sessions\":[{\"sessionKey\":"),
                revoked.out());
        assertTrue(revoked.out().contains(ForgedRows.rowKeyHex("/shop", first.record().id()))
                && revoked.out().contains(ForgedRows.rowKeyHex("/shop", second.record().id())), revoked.out());
        assertTrue(store.load(first.record().id()).isEmpty());
        assertTrue(store.load(second.record().id()).isEmpty());
        assertTrue(store.load(other.record().id()).isPresent(), "another user's session stays");

        Run again = runOnHBase("", "revoke", "ivy");
        assertEquals(0, again.exitCode());
        assertTrue(again.out().contains("revoked: 0"), again.out());
    }

    @Test
    void sweepIndexRemovesTheEntriesOfDeletedSessionsOnly() throws Exception {
        StoreSettings own = settings.toBuilder().set(Setting.INDEX_TABLE, namespace.table("sweep_idx")).build();
        List<StoredSession> sessions = new ArrayList<>();
        try (SessionStore sweepStore = TestStores.open(own)) {
            for (int i = 0; i < 3; i++) {
                sessions.add(login(sweepStore, "zed"));
            }
            ForgedRows.deleteRowOnly(hbase, own.get(Setting.TABLE), "/shop", sessions.get(0).record().id());
            ForgedRows.deleteRowOnly(hbase, own.get(Setting.TABLE), "/shop", sessions.get(1).record().id());
            List<String> index = List.of("--index-table", own.get(Setting.INDEX_TABLE), "--operation-timeout-millis", "1000");

            Run tooYoung = runOnHBase("", with(index, "sweep-index", "--min-entry-age-seconds", "0"));
            assertEquals(2, tooYoung.exitCode());
            assertTrue(tooYoung.err().contains("at least 2 s"), tooYoung.err());

            Run fresh = runOnHBase("", with(index, "sweep-index", "--min-entry-age-seconds", "2", "--json"));
            assertEquals(0, fresh.exitCode(), fresh.err());
            assertTrue(fresh.out().contains("\"removed\":0"), "entries younger than the age are not judged: " + fresh.out());

            Thread.sleep(2_100);
            Run swept = runOnHBase("", with(index, "sweep-index", "--min-entry-age-seconds", "2", "--json"));
            assertEquals(0, swept.exitCode(), swept.err());
            assertEquals("{\"scanned\":3,\"removed\":2,\"kept\":1,\"unparseableRows\":0,\"minEntryAgeSeconds\":2}",
                    swept.out().strip());
            assertEquals(1, sweepStore.findByUser("zed").size());
            assertEquals(1, hbase.scan(own.get(Setting.INDEX_TABLE)).size());
            assertEquals(1, sweepStore.revokeAll("zed"), "the live session's entry still revokes it");
        }
    }

    @Test
    void statsCountsRowsPerRegionAndServerAndSaysItsHistogramsAreASample() throws Exception {
        for (int i = 0; i < 5; i++) {
            TestStores.create(store, Instant.now(), HALF_AN_HOUR, Map.of("n", i));
        }
        Run stats = runOnHBase("", "stats", "--sample", "4");
        assertEquals(0, stats.exitCode(), stats.err());
        // 2 rows from the start of each of the 2 regions, fewer where a region holds fewer.
        assertTrue(stats.out().matches("(?s).*note: a sample of [1-4] rows \\(4 asked for\\), the first rows of "
                + "every region.*"), stats.out());
        assertTrue(stats.out().contains("< 1 min: "), stats.out());
        assertTrue(stats.out().contains("rowsAreALowerBound: false"), stats.out());
        Run capped = runOnHBase("", "stats", "--count-limit", "1", "--json");
        assertTrue(capped.out().contains("\"rowsAreALowerBound\":true"), capped.out());
        try (Admin admin = hbase.admin()) {
            admin.flush(TableName.valueOf(settings.get(Setting.TABLE)));
        }
        Run json = runOnHBase("", "stats", "--json");
        assertEquals(0, json.exitCode(), json.err());
        assertTrue(json.out().matches("(?s).*\"servers\":\\[\\{[^}]*\"storeFiles\":[1-9].*"),
                "the flushed rows are in store files: " + json.out());
        assertEquals(2, json.out().split("\"region\":", -1).length - 1, "2 regions: " + json.out());
        assertTrue(json.out().contains("\"servers\":[{\"server\":\"127.0.0.1:"), json.out());
    }

    @Test
    void healthIsExit0OnAHealthyStoreAndTheMBeanAsksTheSameCheck() throws Exception {
        Run healthy = runOnHBase("", "health", "--json");
        assertEquals(0, healthy.exitCode(), healthy.out());
        assertTrue(healthy.out().startsWith("{\"healthy\":true,"), healthy.out());

        Path site = Files.writeString(work.resolve("hbase-site.xml"), "<configuration>"
                + "<property><name>hbase.zookeeper.quorum</name><value>" + server.zookeeperQuorum() + "</value></property>"
                + "<property><name>hbase.zookeeper.property.clientPort</name><value>" + server.zookeeperPort()
                + "</value></property></configuration>");
        Run bySite = run("", "health", "--hbase-site", site.toString(), "--table", settings.get(Setting.TABLE),
                "--index-table", settings.get(Setting.INDEX_TABLE));
        assertEquals(0, bySite.exitCode(), "the client settings of an hbase-site.xml: " + bySite.out() + bySite.err());

        Run noTables = runOnHBase("", "health", "--table", namespace.table("never_created"));
        assertEquals(1, noTables.exitCode(), noTables.out());
        assertTrue(noTables.out().contains("does not exist"), noTables.out());

        try (StoreMBean.Registration registration = StoreMBean.register(store, settings, "test", "/shop")) {
            Object answer = ManagementFactory.getPlatformMBeanServer().invoke(registration.name(), "checkHealth",
                    new Object[0], new String[0]);
            assertTrue(String.valueOf(answer).startsWith("healthy ("), String.valueOf(answer));
        }
    }

    @Test
    void healthWithHBaseDownExitsNonZeroWithinTheOperationTimeout() {
        // Nothing listens on port 1: the quorum is down, as when every ZooKeeper and region server is gone.
        Run down = run("", "health", "--zookeeper-quorum", "127.0.0.1:1", "--operation-timeout-millis", "1000",
                "--json");
        System.out.println("health with HBase down answered in " + down.millis() + " ms: " + down.out());
        assertEquals(1, down.exitCode(), down.out() + down.err());
        assertTrue(down.out().contains("\"healthy\":false") && down.out().contains("HBase did not finish connecting"),
                down.out());
        assertTrue(down.millis() < 1_000 + 2_000, down.millis() + " ms");
    }

    private static Path keyFile() throws IOException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return Files.writeString(work.resolve("state.keys"), Base64.getEncoder().encodeToString(key) + "\n");
    }

    private static StoredSession login(String user) {
        return login(store, user);
    }

    private static StoredSession login(SessionStore into, String user) {
        StoredSession session = into.newSession(SessionRecord.created(TestStores.newId(), Instant.now(), HALF_AN_HOUR)
                .withLogin(new SessionPrincipal(user, List.of(), "FORM")), false);
        session.attributes().put("cart", "book");
        into.save(session, session.record());
        return session;
    }

    private static String[] with(List<String> first, String... more) {
        List<String> args = new ArrayList<>(List.of(more));
        args.addAll(first);
        return args.toArray(String[]::new);
    }

    /** Runs a command with this class's store settings; later options of the same name win. */
    private static Run runOnHBase(String stdin, String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--table")) {
            all.addAll(List.of("--table", settings.get(Setting.TABLE)));
        }
        if (!all.contains("--index-table")) {
            all.addAll(List.of("--index-table", settings.get(Setting.INDEX_TABLE)));
        }
        if (!all.contains("--regions")) {
            all.addAll(List.of("--regions", "2"));
        }
        all.addAll(List.of("--zookeeper-quorum", server.zookeeperQuorum() + ":" + server.zookeeperPort()));
        return run(stdin, all.toArray(String[]::new));
    }

    private static Run run(String stdin, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        long start = System.nanoTime();
        int code = AdminMain.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
                new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString(), (System.nanoTime() - start) / 1_000_000);
    }
}
