package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.ForgedState;
import io.hbasesessions.store.HBaseInspector;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.codec.ForgedKryo;
import io.hbasesessions.testing.Browser;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #11's Tomcat probe: with {@code sessionAttributeValueClassNameFilter} set, an attribute of a
 * class it does not allow, written into the session's row by another writer, is never decoded: its
 * readObject does not run, the application does not see it, and the rest of the session works.
 */
@ExtendWith(HBaseExtension.class)
class ForgedAttributeTest {

    private static final String TOMCAT_FILTER = "java\\.lang\\.(?:Boolean|Integer|Long|Number|String)";

    @TempDir
    Path directory;
    private Tomcat tomcat;

    @AfterEach
    void stopTomcat() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
    }

    @Test
    void anAttributeTomcatsFilterRefusesIsNotDecodedAndTheRestOfTheSessionWorks(EmbeddedHBase hbase,
            TestNamespace namespace, Configuration hbaseClient) throws Exception {
        HBaseSessionManager manager = TestManagers.manager(hbase, namespace);
        manager.setSessionAttributeValueClassNameFilter(TOMCAT_FILTER);
        URI servlet = start(manager);
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=first");
        forgeGadgetInto(hbaseClient, namespace, SessionIds.withoutRoute(browser.sessionId()));
        Gadget.EVENTS.clear();

        assertEquals("first", browser.get(servlet, "op=read").body());
        assertEquals("[value]", browser.get(servlet, "op=names").body(), "the application does not see it");
        assertEquals(List.of(), Gadget.EVENTS, "none of the gadget's code ran");
        assertEquals(1, manager.counters().get(StoreCounter.REFUSED_ATTRIBUTES));

        browser.get(servlet, "op=put&value=second");
        assertEquals("second", browser.get(servlet, "op=read").body());
        assertEquals(List.of(), Gadget.EVENTS);
    }

    /** Another writer of the table puts a gadget into the session's row, past any store. */
    private static void forgeGadgetInto(Configuration hbase, TestNamespace namespace, String sessionId)
            throws IOException {
        try (HBaseInspector cells = new HBaseInspector(hbase)) {
            ForgedState.addAttribute(cells, namespace.table("sessions"), "/forged", sessionId, "gadget",
                    ForgedKryo.encode(new Gadget()));
        }
    }

    private URI start(HBaseSessionManager manager) throws LifecycleException {
        tomcat = new Tomcat();
        tomcat.setBaseDir(directory.toString());
        tomcat.setPort(0);
        Context context = tomcat.addContext("/forged", directory.toString());
        context.setManager(manager);
        Tomcat.addServlet(context, "session", new SessionServlet()).addMapping("/session");
        tomcat.getConnector();
        tomcat.start();
        return URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/forged/session");
    }

    /** Answers {@code ?op=}: put (a value), read (it), names (of the session's attributes). */
    static final class SessionServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            switch (request.getParameter("op")) {
                case "put" -> request.getSession(true).setAttribute("value", request.getParameter("value"));
                case "read" -> response.getWriter().print(request.getSession(false).getAttribute("value"));
                case "names" -> response.getWriter().print(Collections.list(request.getSession(false)
                        .getAttributeNames()));
                default -> response.sendError(400);
            }
        }
    }

    /** Records every piece of its code that runs: what a deserialization gadget would use. */
    public static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        static final List<String> EVENTS = new CopyOnWriteArrayList<>();

        public Gadget() {
            EVENTS.add("instantiated");
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            EVENTS.add("readObject");
            in.defaultReadObject();
        }

        private Object readResolve() {
            EVENTS.add("readResolve");
            return this;
        }

        @Override
        public int hashCode() {
            EVENTS.add("hashCode");
            return 1;
        }

        @Override
        public boolean equals(Object other) {
            return other == this;
        }
    }
}
