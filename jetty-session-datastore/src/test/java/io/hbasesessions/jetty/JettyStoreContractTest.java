package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.session.SessionData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The store as Jetty's session caches call it ({@code SessionDataStore}), on two nodes of one key scope. Jetty
 * passes the time it last saved the data: none means a new session, a time means an update (issue #29 item 5).
 */
@ExtendWith(HBaseExtension.class)
class JettyStoreContractTest {

    private static final long HALF_AN_HOUR_MS = TimeUnit.MINUTES.toMillis(30);

    private static JettyNode nodeA;
    private static JettyNode nodeB;

    @BeforeAll
    static void start(EmbeddedHBase server, TestNamespace namespace) {
        Map<String, String> settings = TestStores.settings(server, namespace);
        nodeA = JettyNode.start("nodea", settings);
        nodeB = JettyNode.start("nodeb", settings);
    }

    @AfterAll
    static void stop() {
        nodeA.close();
        nodeB.close();
    }

    /**
     * Data this store made, which Jetty saved before (its last-saved time is set) while another node created the
     * row: Jetty's next store of it is an update, and reaches HBase. It was refused as "already exists", logged,
     * and dropped, while Jetty went on believing it saved.
     */
    @Test
    void dataJettySavedBeforeIsStoredAsAnUpdateWhateverThisStoreWrote() throws Exception {
        String id = newId();
        SessionData onA = newData(nodeA, id);
        onA.setLastSaved(onA.getCreated());
        storedByB(id);

        onA.setAttribute("from", "a");
        nodeA.sessionDataStore().store(id, onA);

        assertEquals("a", nodeB.sessionDataStore().load(id).getAttribute("from"),
                "the update of the data Jetty saved before");
    }

    /** Data Jetty never saved is a new session: a create, which never takes over another node's live session. */
    @Test
    void dataJettyNeverSavedIsACreateThatLeavesALiveSessionAlone() throws Exception {
        String id = newId();
        storedByB(id);

        SessionData onA = newData(nodeA, id);
        onA.setAttribute("from", "a");
        nodeA.sessionDataStore().store(id, onA);

        assertEquals("b", nodeA.sessionDataStore().load(id).getAttribute("from"),
                "another node's live session is not taken over");
    }

    private static String newId() {
        return "node0contract" + System.nanoTime();
    }

    /** Data the node's store makes for a new session, as Jetty asks for it. */
    private static SessionData newData(JettyNode node, String id) {
        long now = System.currentTimeMillis();
        return node.sessionDataStore().newSessionData(id, now, now, now, HALF_AN_HOUR_MS);
    }

    /** Node B creates the session's row, with {@code from=b}. */
    private static void storedByB(String id) throws Exception {
        SessionData onB = newData(nodeB, id);
        onB.setAttribute("from", "b");
        nodeB.sessionDataStore().store(id, onB);
    }
}
