package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Sessions whose attributes are classes of the WAR outlive the Jetty that served them. */
@ExtendWith(HBaseExtension.class)
class RestartTest {

    @Test
    void warClassAttributesSurviveARestartOfJetty(EmbeddedHBase hbase, TestNamespace namespace) {
        Map<String, String> settings = TestStores.settings(hbase, namespace);
        Browser browser = new Browser();
        Answer before;
        try (JettyNode node = JettyNode.start("node0", settings)) {
            browser.get(node.servlet(), "op=put&name=cart&value=book");
            browser.get(node.servlet(), "op=append&name=notes&value=first");
            browser.get(node.servlet(), "op=append&name=notes&value=second");
            browser.get(node.servlet(), "op=listen&name=listener&value=x");
            before = browser.get(node.servlet(), "op=get");
        }

        try (JettyNode restarted = JettyNode.start("node0", settings)) {
            Answer after = browser.get(restarted.servlet(), "op=get");

            assertEquals(before.value("id"), after.value("id"));
            assertEquals(before.value("creation"), after.value("creation"));
            assertEquals("Note(book)", after.attribute("cart"));
            assertEquals(before.attribute("notes"), after.attribute("notes"));
            assertTrue(after.attribute("notes").contains("second"), after.attribute("notes"));
            Map<String, String> events = browser.get(restarted.servlet(), "op=events").values();
            assertTrue(Long.parseLong(events.get("activated")) > 0, "no activation listener fired: " + events);
        }
    }
}
