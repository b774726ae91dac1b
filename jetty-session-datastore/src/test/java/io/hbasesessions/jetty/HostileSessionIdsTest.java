package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A request with an id that names no live session gets a fresh one; no stored session is touched. */
@ExtendWith(HBaseExtension.class)
class HostileSessionIdsTest {

    private static JettyNode node;
    private static SessionStore hbase;
    private static Map<String, String> settings;
    private static Configuration client;
    private static Browser victim;

    @BeforeAll
    static void start(EmbeddedHBase server, TestNamespace namespace, Configuration configuration) {
        settings = TestStores.settings(server, namespace);
        client = configuration;
        node = JettyNode.start("node0", settings);
        hbase = TestStores.inspector(settings);
        victim = new Browser();
        victim.get(node.servlet(), "op=put&name=cart&value=victim");
    }

    @AfterAll
    static void stop() {
        node.close();
        hbase.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "node0forgedbutwellformed12345.node0",
        "garbage%00%ff..%2F..%2Fetc",
        "'or'1'='1",
        "\u00e9t\u00e9-non-ascii",
        "x.node7.node0",
    })
    void anUnknownIdGetsAFreshSessionUnderANewId(String forged) throws Exception {
        assertFreshSessionFor(forged);
    }

    @Test
    void anOverlongIdGetsAFreshSession() throws Exception {
        assertFreshSessionFor("a".repeat(4000));
    }

    @Test
    void aVictimsIdWithAnotherNodeSuffixIsTheSameSessionNotANewOne() {
        String sameSessionOtherSuffix = victim.sessionId() + ".node9";
        Answer reply = Browser.withCookie(sameSessionOtherSuffix).get(node.servlet(), "op=get");
        assertEquals("Note(victim)", reply.attribute("cart"));
    }

    @Test
    void anExpiredIdGetsAFreshSessionAndTheOldOneIsNotBroughtBack() throws InterruptedException {
        Browser expiring = new Browser();
        // The short timeout is set on the first request: shortening it later would leave an older cell
        // version with a longer TTL behind it (see the report on the store's cell TTLs).
        expiring.get(node.servlet(), "op=timeout&seconds=1");
        expiring.get(node.servlet(), "op=put&name=cart&value=old");
        String expiredId = expiring.sessionId();
        Thread.sleep(2_500);

        Answer reply = expiring.get(node.servlet(), "op=put&name=cart&value=new");

        assertNotEquals(expiredId, expiring.sessionId());
        assertEquals("true", reply.value("new"));
        assertEquals("Note(new)", reply.attribute("cart"));
        assertFalse(TestStores.exists(hbase, expiredId), "the expired session came back");
    }

    private static void assertFreshSessionFor(String forged) throws Exception {
        Browser attacker = Browser.withCookie(forged);
        byte[] victimState = TestStores.stateCell(client, settings, victim.sessionId());

        Answer reply = attacker.get(node.servlet(), "op=put&name=cart&value=attacker");

        assertEquals(200, reply.status());
        assertEquals("true", reply.value("new"));
        assertNotEquals(forged, attacker.cookie());
        assertTrue(attacker.cookie().startsWith("node0"), attacker.cookie());
        assertFalse(TestStores.exists(hbase, forged.replaceFirst("\\.node\\d+$", "")), "a session was stored under the forged id");
        assertArrayEquals(victimState, TestStores.stateCell(client, settings, victim.sessionId()),
                "the victim's session was written");
        assertEquals("Note(victim)", victim.get(node.servlet(), "op=get").attribute("cart"));
    }
}
