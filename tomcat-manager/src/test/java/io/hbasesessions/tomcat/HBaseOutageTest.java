package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HBase stops in the middle of a run. Requests answer within the operation timeout, as failMode says,
 * and the nodes recover on their own when HBase is back, with the sessions stored before intact.
 */
class HBaseOutageTest {

    private static final long TIMEOUT_MILLIS = 1500;
    /** Answer time allowed on top of the operation timeout (a request may meet it once for its load). */
    private static final Duration SLACK = Duration.ofSeconds(3);
    private static final Duration RECOVERY_LIMIT = Duration.ofMinutes(2);

    @TempDir
    Path directory;
    private EmbeddedHBase hbase;
    private TomcatNode failing;
    private TomcatNode continuing;

    @AfterEach
    void stopEverything() {
        for (AutoCloseable running : new AutoCloseable[] {failing, continuing, hbase}) {
            try {
                if (running != null) {
                    running.close();
                }
            } catch (Exception e) {
                System.err.println("Cleanup: " + e);
            }
        }
    }

    @Test
    void requestsAnswerWithTheFailModeWithinTheTimeoutAndNodesRecoverWhenHBaseIsBack() throws Exception {
        hbase = EmbeddedHBase.builder().dataDirectory(directory.resolve("hbase")).build().start();
        failing = new TomcatNode("error", directory.resolve("error"), () -> manager("error")).start();
        continuing = new TomcatNode("new", directory.resolve("new"), () -> manager("new_session")).start();
        Browser user = new Browser();
        user.get(failing.servlet(), "op=put&name=order&value=42");
        String id = user.cookie();

        hbase.stop();

        Answer withSession = user.get(failing.servlet(), "op=get");
        assertEquals(503, withSession.status(), withSession.body());
        assertTrue(withSession.body().contains(HBaseSessionValve.UNAVAILABLE_MESSAGE), withSession.body());
        assertFalse(withSession.body().contains("Exception"), "no stack trace: " + withSession.body());
        assertAnsweredInTime(withSession);

        Answer newSession = new Browser().get(failing.servlet(), "op=create");
        assertEquals(503, newSession.status(), "a new session cannot be stored either");
        assertAnsweredInTime(newSession);

        Browser sameUserOnOtherNode = Browser.withCookie(id);
        Answer fresh = sameUserOnOtherNode.get(continuing.servlet(), "op=put&name=draft&value=x");
        assertEquals(200, fresh.status(), fresh.body());
        assertNotEquals(id, fresh.value("id"));
        assertEquals(Map.of("draft", "Note(x)"), fresh.attributes(), "a fresh session, not the stored one");
        assertAnsweredInTime(fresh);

        hbase.start();
        long restarted = System.nanoTime();
        Answer recovered = awaitSuccess(user, failing);
        System.out.println("HBase outage: answers in " + withSession.elapsed().toMillis() + " / "
                + newSession.elapsed().toMillis() + " / " + fresh.elapsed().toMillis() + " ms (timeout "
                + TIMEOUT_MILLIS + " ms); first success " + Duration.ofNanos(System.nanoTime() - restarted).toMillis()
                + " ms after HBase was started again");
        assertEquals(Map.of("order", "Note(42)"), recovered.attributes());
        assertEquals(Map.of("order", "Note(42)"), Browser.withCookie(id).get(continuing.servlet(), "op=get").attributes());
    }

    private HBaseSessionManager manager(String failMode) {
        HBaseSessionManager manager = new HBaseSessionManager();
        manager.setZookeeperQuorum(TestManagers.quorum(hbase));
        manager.setRegions("1");
        manager.setOperationTimeoutMillis(Long.toString(TIMEOUT_MILLIS));
        manager.setFailMode(failMode);
        return manager;
    }

    private static void assertAnsweredInTime(Answer answer) {
        Duration limit = Duration.ofMillis(TIMEOUT_MILLIS).plus(SLACK);
        assertTrue(answer.elapsed().compareTo(limit) <= 0, "answered in " + answer.elapsed() + ", over " + limit);
    }

    private static Answer awaitSuccess(Browser user, TomcatNode node) throws InterruptedException {
        long deadline = System.nanoTime() + RECOVERY_LIMIT.toNanos();
        Answer answer;
        do {
            answer = user.get(node.servlet(), "op=get");
            if (answer.status() == 200) {
                return answer;
            }
            Thread.sleep(250);
        } while (System.nanoTime() < deadline);
        throw new AssertionError("No recovery within " + RECOVERY_LIMIT + "; last answer: HTTP " + answer.status());
    }
}
