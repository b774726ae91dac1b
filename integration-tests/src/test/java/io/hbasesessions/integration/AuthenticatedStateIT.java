package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.SaveResult;
import io.hbasesessions.store.SessionPrincipal;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import io.hbasesessions.testing.Browser;
import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #11: with {@code stateProtection=hmac}, a forged principal row does not log anyone in, on
 * Tomcat 10.1 and Jetty 12.1 (two of the {@link SharedNodes}, both with {@code hmac}). The forgeries
 * are rows whose state cell names an {@code admin} login: one written by a writer without the nodes'
 * key, one by a writer with a key of its own, and one a node signed itself, for another session, copied
 * into a visitor's row with a raw {@code Put}. Each request presenting one gets no login and counts
 * {@code forgedStates}; the nodes' own logins cross between the containers as before.
 */
@ExtendWith({HBaseExtension.class, SharedNodes.Resolver.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AuthenticatedStateIT {

    private static final SessionPrincipal ADMIN = new SessionPrincipal("admin", List.of(TestNodes.ROLE), "FORM");
    private static final byte[] FAMILY = Bytes.toBytes("s");
    private static final byte[] STATE = Bytes.toBytes("state");
    private static final byte[] VERSION = Bytes.toBytes("ver");

    private Node tomcat;
    private Node jetty;
    private Map<String, String> settings;
    private StoredSessions stored;
    private Configuration hbaseClient;

    /** Who wrote the forged row. */
    enum Forger { WITHOUT_A_KEY, WITH_A_KEY_OF_ITS_OWN }

    @BeforeAll
    void startTheSharedNodes(EmbeddedHBase hbase, SharedNodes nodes, Configuration configuration)
            throws InterruptedException {
        nodes.startOn(hbase);
        tomcat = nodes.node(SharedNodes.TOMCAT_10);
        jetty = nodes.node(SharedNodes.JETTY_A);
        settings = nodes.settings();
        stored = nodes.stored();
        hbaseClient = configuration;
        assertEquals("hmac", settings.get("stateProtection"));
    }

    @ParameterizedTest
    @EnumSource(Forger.class)
    void aForgedAdminLoginLogsNobodyInOnEitherContainer(Forger forger) {
        String id = newId();
        try (SessionStore forgersStore = SessionStores.open(forgersSettings(forger),
                new Webapp(AuthenticatedStateIT.class.getClassLoader(), Container.NONE))) {
            StoredSession session = forgersStore.newSession(SessionRecord.created(id, Instant.now(),
                    Duration.ofMinutes(30)).withLogin(ADMIN), false);
            assertEquals(SaveResult.WRITTEN, forgersStore.save(session, session.record()));
            assertEquals(Optional.of(ADMIN), forgersStore.load(id).orElseThrow().record().login(),
                    "the row holds an admin login for a store that does not check the nodes' key");
        }
        for (Node node : List.of(tomcat, jetty)) {
            assertNobodyIsLoggedIn(Browser.withCookie(id + "." + node.route()), node);
        }
    }

    @Test
    void aLoginANodeSignedIsNoLoginInAnotherSessionsRow() throws IOException {
        Browser alice = new Browser();
        get(alice, tomcat, "op=put&name=cart&value=book");
        get(alice, tomcat, "op=login&user=alice&password=" + TestNodes.PASSWORD);
        assertEquals("alice", get(alice, jetty, "op=whoami").get("user"), "a login Tomcat signed is one on Jetty");
        Browser visitor = new Browser();
        get(visitor, jetty, "op=put&name=cart&value=pen");

        copyRow(alice.sessionId(), visitor.sessionId());
        for (Node node : List.of(tomcat, jetty)) {
            assertNobodyIsLoggedIn(visitor, node);
        }
        assertEquals("alice", get(alice, jetty, "op=whoami").get("user"), "the original row is untouched");
        assertEquals("alice", get(alice, tomcat, "op=whoami").get("user"));
    }

    private void assertNobodyIsLoggedIn(Browser browser, Node node) {
        long forgedBefore = node.counters().get("forgedStates");
        Map<String, String> who = get(browser, node, "op=whoami&role=" + TestNodes.ROLE);
        assertEquals("none", who.get("user"), node + " logged the forged row's user in");
        assertEquals("false", who.get("inRole"), node + " granted the forged row's role");
        assertTrue(node.counters().get("forgedStates") > forgedBefore, node + " did not count the forged cell");
    }

    /** The nodes' settings as a forger has them: the tables, and no key or a key of its own. */
    private StoreSettings forgersSettings(Forger forger) {
        StoreSettings.Builder builder = StoreSettings.builder().defaultKeyScope(TestNodes.CONTEXT_PATH);
        settings.forEach(builder::set);
        return switch (forger) {
            case WITHOUT_A_KEY -> builder.set("stateProtection", "none").set("stateKeyFile", null).build();
            case WITH_A_KEY_OF_ITS_OWN -> builder.set("stateKeyFile", TestNodes.writeStateKey(
                    Path.of("target", "nodes", "forger-" + newId(), "keys").toAbsolutePath()).toString()).build();
        };
    }

    /** Copies the state and version cells of one session's row into another's, as anyone with write access can. */
    private void copyRow(String fromId, String toId) throws IOException {
        try (Connection hbase = ConnectionFactory.createConnection(hbaseClient);
                Table table = hbase.getTable(TableName.valueOf(settings.get("table")))) {
            Result from = table.get(new Get(stored.rowKey(fromId)));
            table.put(new Put(stored.rowKey(toId)).addColumn(FAMILY, STATE, from.getValue(FAMILY, STATE))
                    .addColumn(FAMILY, VERSION, from.getValue(FAMILY, VERSION)));
        }
    }

    private static Map<String, String> get(Browser browser, Node node, String query) {
        return AbstractTwoNodeSessionsIT.get(browser, node, query);
    }

    private static String newId() {
        byte[] bytes = new byte[16];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().withUpperCase().formatHex(bytes);
    }
}
