package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase stopped while two nodes serve: one with failMode=error, one with failMode=new_session. Every
 * answer comes within a bound, nothing stored is lost or overwritten, and both nodes recover by
 * themselves when HBase is back.
 */
class HBaseOutageTest {

    private static final long OPERATION_TIMEOUT_MILLIS = 1_000;
    /** A load, an id check and a probe may each wait out the timeout, plus the servlet's own work. */
    private static final Duration ANSWER_BOUND = Duration.ofMillis(4 * OPERATION_TIMEOUT_MILLIS + 2_000);

    private static final Duration RECOVERY_BOUND = Duration.ofSeconds(30);

    @TempDir
    static Path dataDirectory;
    private static EmbeddedHBase hbase;
    private static JettyNode failing;
    private static JettyNode degrading;

    @BeforeAll
    static void start() throws Exception {
        hbase = EmbeddedHBase.builder().dataDirectory(Files.createDirectories(dataDirectory.resolve("hbase"))).build().start();
        Map<String, String> settings = Map.of(
                "zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort(),
                "regions", "1",
                "operationTimeoutMillis", Long.toString(OPERATION_TIMEOUT_MILLIS));
        failing = JettyNode.start("node0", TestStores.with(settings, "failMode", "error"));
        degrading = JettyNode.start("node1", TestStores.with(settings, "failMode", "new_session"));
    }

    @AfterAll
    static void stop() {
        failing.close();
        degrading.close();
        hbase.stop();
    }

    @Test
    void boundedAnswersWhileHBaseIsDownAndNothingLostAfterwards() throws InterruptedException {
        Browser user = new Browser();
        user.get(failing.servlet(), "op=put&name=cart&value=book");
        user.get(degrading.servlet(), "op=append&name=notes&value=before-outage");
        String cookie = user.cookie();

        hbase.stop();

        Answer refused = user.get(failing.servlet(), "op=put&name=cart&value=during-outage");
        assertEquals(503, refused.status(), "failMode=error: " + refused);
        assertEquals(cookie, user.cookie(), "the client's cookie was replaced");
        assertBounded(refused);

        Browser stranger = new Browser();
        Answer refusedNew = stranger.get(failing.servlet(), "op=create");
        assertEquals(503, refusedNew.status());
        assertBounded(refusedNew);

        Browser sameUserOnOtherNode = Browser.withCookie(cookie);
        Answer fresh = sameUserOnOtherNode.get(degrading.servlet(), "op=put&name=cart&value=during-outage");
        assertEquals(200, fresh.status(), "failMode=new_session: " + fresh);
        assertEquals("true", fresh.value("new"));
        assertNotEquals(cookie, sameUserOnOtherNode.cookie());
        assertBounded(fresh);
        System.out.printf("during the outage: error answered in %d ms, new_session in %d ms%n",
                refused.elapsed().toMillis(), fresh.elapsed().toMillis());

        hbase.start();

        Answer recovered = firstAnswerWithSession(user, failing);
        assertEquals("Note(book)", recovered.attribute("cart"), "stored attribute lost or overwritten");
        assertTrue(recovered.attribute("notes").contains("before-outage"), recovered.toString());
        assertEquals("Note(book)", user.get(degrading.servlet(), "op=get").attribute("cart"));
        assertEquals(200, new Browser().get(failing.servlet(), "op=create").status());
    }

    /** Right after the restart regions are still being assigned; the node recovers within seconds by itself. */
    private static Answer firstAnswerWithSession(Browser user, JettyNode node) throws InterruptedException {
        long started = System.nanoTime();
        Answer reply = user.get(node.servlet(), "op=get");
        while (!reply.hasSession() && System.nanoTime() - started < RECOVERY_BOUND.toNanos()) {
            Thread.sleep(250);
            reply = user.get(node.servlet(), "op=get");
        }
        System.out.printf("recovered %d ms after HBase was back%n", Duration.ofNanos(System.nanoTime() - started).toMillis());
        return reply;
    }

    private static void assertBounded(Answer reply) {
        assertTrue(reply.elapsed().compareTo(ANSWER_BOUND) <= 0, "took " + reply.elapsed() + ", bound " + ANSWER_BOUND);
    }
}
