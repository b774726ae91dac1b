package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** Sessions outlive the Tomcat that created them; their attributes are instances of the WAR's own classes. */
@ExtendWith(HBaseExtension.class)
class RestartTest {

    private static final Map<String, String> ATTRIBUTES = Map.of("note", "Note(kept)", "list", "[Note(one), Note(two)]");

    @Test
    void hbaseSessionManagerSessionsSurviveARestart(EmbeddedHBase hbase, TestNamespace namespace,
            @TempDir Path directory) {
        try (TomcatNode node = new TomcatNode("r", directory, () -> TestManagers.manager(hbase, namespace))) {
            Browser browser = fillSession(node.start());
            node.stop();
            node.start();
            assertEquals(ATTRIBUTES, browser.get(node.servlet(), "op=get").attributes());
        }
    }

    @Test
    void persistentManagerWithHBaseStoreKeepsSessionsAcrossARestart(EmbeddedHBase hbase, TestNamespace namespace,
            @TempDir Path directory) {
        try (TomcatNode node = new TomcatNode("p", directory, () -> TestManagers.persistentManager(hbase, namespace))) {
            Browser browser = fillSession(node.start());
            node.stop(); // PersistentManager saves every session to the store when it stops
            node.start(); // and swaps each in from the store when a request asks for it
            assertEquals(ATTRIBUTES, browser.get(node.servlet(), "op=get").attributes());

            String id = browser.cookie();
            assertEquals("true", browser.get(node.servlet(), "op=invalidate").value("invalidated"));
            node.stop();
            node.start();
            assertEquals("none", Browser.withCookie(id).get(node.servlet(), "op=get").value("id"));
        }
    }

    private static Browser fillSession(TomcatNode node) {
        Browser browser = new Browser();
        browser.get(node.servlet(), "op=put&name=note&value=kept");
        browser.get(node.servlet(), "op=append&name=list&value=one");
        browser.get(node.servlet(), "op=append&name=list&value=two");
        return browser;
    }
}
