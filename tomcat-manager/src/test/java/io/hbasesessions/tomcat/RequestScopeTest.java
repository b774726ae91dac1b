package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where a request's session work begins and ends, with a servlet of this test (not the WAR): a session
 * used on an asynchronous request's own thread, and a session looked up several times in one request
 * under pessimistic locking (one read, one lease, no request waiting for its own lease).
 */
@ExtendWith(HBaseExtension.class)
class RequestScopeTest {

    @TempDir
    Path directory;
    private Tomcat tomcat;

    @AfterEach
    void stopTomcat() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
    }

    @Test
    void aSessionChangedOnAnAsynchronousRequestsThreadIsSavedWhenItCompletes(EmbeddedHBase hbase,
            TestNamespace namespace) {
        URI base = start(TestManagers.manager(hbase, namespace));
        Browser browser = new Browser();
        assertEquals(200, browser.get(base, "op=async-put").status());
        assertEquals("done-async", browser.get(base, "op=read").body());
    }

    @Test
    void repeatedLookupsInOneRequestTakeOnePessimisticLease(EmbeddedHBase hbase, TestNamespace namespace) {
        HBaseSessionManager manager = TestManagers.manager(hbase, namespace);
        manager.setLockingMode("pessimistic");
        manager.setOperationTimeoutMillis("3000");
        URI base = start(manager);
        Browser browser = new Browser();
        browser.get(base, "op=put");
        for (int i = 0; i < 5; i++) {
            Answer answer = browser.get(base, "op=look-twice");
            assertEquals("valid=true value=done", answer.body());
            assertTrue(answer.elapsed().compareTo(Duration.ofSeconds(1)) < 0, "answered in " + answer.elapsed());
        }
    }

    private URI start(HBaseSessionManager manager) {
        try {
            tomcat = new Tomcat();
            tomcat.setBaseDir(directory.toString());
            tomcat.setPort(0);
            Context context = tomcat.addContext("/scope", directory.toString());
            context.setManager(manager);
            Wrapper servlet = Tomcat.addServlet(context, "scope", new ScopeServlet());
            servlet.setAsyncSupported(true);
            servlet.addMapping("/session");
            tomcat.getConnector();
            tomcat.start();
            return URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/scope/session");
        } catch (LifecycleException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers {@code ?op=}: async-put, put, read, look-twice. */
    static final class ScopeServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            switch (request.getParameter("op")) {
                case "async-put" -> {
                    AsyncContext async = request.startAsync();
                    async.start(() -> {
                        request.getSession(true).setAttribute("value", "done-async");
                        async.complete();
                    });
                }
                case "put" -> request.getSession(true).setAttribute("value", "done");
                case "read" -> response.getWriter().print(request.getSession(true).getAttribute("value"));
                case "look-twice" -> response.getWriter().print("valid=" + request.isRequestedSessionIdValid()
                        + " value=" + request.getSession(false).getAttribute("value"));
                default -> response.sendError(400);
            }
        }
    }
}
