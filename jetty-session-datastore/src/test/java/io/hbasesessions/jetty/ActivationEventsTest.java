package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #29: on Jetty, as on Tomcat, a request decodes only the attributes it reads. An
 * {@code HttpSessionActivationListener} value is activated when a request first reads it and passivated when that
 * request lets go of the session; a request that reads no attribute decodes none, so it activates and passivates
 * nothing. Before, Jetty read every attribute of every session at load and at release to look for listeners, and
 * the store then compared all of them again when it saved.
 */
@ExtendWith(HBaseExtension.class)
class ActivationEventsTest {

    private static JettyNode node;

    @BeforeAll
    static void start(EmbeddedHBase server, TestNamespace namespace) {
        node = JettyNode.start("node0", TestStores.settings(server, namespace));
    }

    @AfterAll
    static void stop() {
        node.close();
    }

    @Test
    void aListenerIsActivatedWhenARequestReadsItAndPassivatedWhenThatRequestEnds() {
        Browser browser = new Browser();
        browser.get(node.servlet(), "op=listen&name=note&value=listening").expect(200);
        Browser.Answer settled = events(browser);

        // These requests carry the session's cookie, and read none of its attributes.
        events(browser);
        Browser.Answer unread = events(browser);
        assertEquals(settled.value("activated"), unread.value("activated"), "a request that read nothing activated it");
        assertEquals(settled.value("passivated"), unread.value("passivated"), "a request that read nothing passivated it");

        browser.get(node.servlet(), "op=get").expect(200);
        Browser.Answer afterRead = events(browser);
        assertEquals(count(unread, "activated") + 1, count(afterRead, "activated"), "activated once, when read");
        assertEquals(count(unread, "passivated") + 1, count(afterRead, "passivated"), "passivated once, at the end");
    }

    private static Browser.Answer events(Browser browser) {
        return browser.get(node.servlet(), "op=events").expect(200);
    }

    private static long count(Browser.Answer answer, String event) {
        return Long.parseLong(answer.value(event));
    }
}
