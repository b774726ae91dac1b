package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * On Jetty (12.0 and 12.1, by the module's two test runs) a request's session is stored before any byte
 * of its response is committed, however the response commits, and a save that fails answers with the
 * store's failure response instead of the application's answer.
 */
@ExtendWith(HBaseExtension.class)
class CommitPathsTest {

    private static final int MAX_SESSION_BYTES = 4096;
    /**
     * By the {@code hold} parameter of an async request: the latch its thread waits at after {@code complete()},
     * until the test has read the session; present until that thread goes on.
     */
    private static final Map<String, CountDownLatch> HELD_AFTER_COMPLETE = new ConcurrentHashMap<>();
    private static Server server;
    private static URI servlet;

    @BeforeAll
    static void start(EmbeddedHBase hbase, TestNamespace namespace) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.addBean(new HBaseSessionCacheFactory());
        HBaseSessionDataStoreFactory store = new HBaseSessionDataStoreFactory();
        Map<String, String> settings = TestStores.with(TestStores.settings(hbase, namespace), "maxSessionBytes",
                Integer.toString(MAX_SESSION_BYTES));
        settings.forEach(store::setSetting);
        server.addBean(store);
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.SESSIONS);
        context.setContextPath("/commit");
        ServletHolder holder = new ServletHolder(new CommittingServlet());
        holder.setAsyncSupported(true);
        context.addServlet(holder, "/session");
        server.setHandler(context);
        server.start();
        servlet = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/commit/session");
    }

    @AfterAll
    static void stop() throws Exception {
        server.stop();
    }

    /**
     * The servlet sets a value, commits its response one way or another, then keeps working for a while
     * (the async request's thread, after {@code complete()}, until the client has read the session).
     * The client asks again the moment the response's headers arrive: the value must already be stored.
     */
    @ParameterizedTest
    @ValueSource(strings = {"flush", "large", "content-length", "redirect", "error", "async"})
    void theSessionIsSavedBeforeTheResponseIsCommitted(String style) throws Exception {
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=first");
        HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        for (int round = 0; round < 5; round++) {
            String hold = style + "-" + round;
            HttpResponse<InputStream> committed = client.send(HttpRequest.newBuilder(
                    URI.create(servlet + "?op=commit&style=" + style + "&value=v" + round + "&hold=" + hold))
                    .header("Cookie", "JSESSIONID=" + browser.cookie()).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertTrue(committed.statusCode() < 500, style + " answered " + committed.statusCode());
            assertEquals("v" + round, browser.get(servlet, "op=read").body(),
                    style + ": the change was not stored when the headers arrived");
            if (style.equals("async")) {
                CountDownLatch held = HELD_AFTER_COMPLETE.get(hold);
                assertNotNull(held, "the async request's work after complete() was over before the session was read");
                held.countDown();
            }
            committed.body().readAllBytes();
        }
    }

    /** A session that cannot be saved (here: too large) is a 500 without any detail, and the stored one stays. */
    @Test
    void aSaveThatFailsAnswersTheFailureInsteadOfTheApplicationsAnswer() {
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=kept");

        Browser.Answer tooLarge = browser.get(servlet, "op=too-large");
        assertEquals(500, tooLarge.status(), tooLarge.body());
        assertFalse(tooLarge.body().contains("written anyway"), tooLarge.body());
        assertFalse(tooLarge.body().contains("Exception"), tooLarge.body());
        assertEquals("kept", browser.get(servlet, "op=read").body());
    }

    /** Answers {@code ?op=}: put, read, commit (with a style), too-large. */
    static final class CommittingServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            switch (request.getParameter("op")) {
                case "put" -> request.getSession(true).setAttribute("value", request.getParameter("value"));
                case "read" -> {
                    HttpSession session = request.getSession(false);
                    response.getWriter().print(session == null ? null : session.getAttribute("value"));
                }
                case "commit" -> commit(request, response, request.getParameter("style"));
                case "too-large" -> {
                    request.getSession(false).setAttribute("upload", "x".repeat(2 * MAX_SESSION_BYTES));
                    response.getWriter().print("written anyway");
                }
                default -> response.sendError(400);
            }
        }

        private static void commit(HttpServletRequest request, HttpServletResponse response, String style)
                throws IOException {
            String value = request.getParameter("value");
            if (style.equals("async")) {
                String hold = request.getParameter("hold");
                CountDownLatch afterComplete = HELD_AFTER_COMPLETE.computeIfAbsent(hold, name -> new CountDownLatch(1));
                AsyncContext async = request.startAsync();
                async.start(() -> {
                    request.getSession(false).setAttribute("value", value);
                    async.complete();
                    try {
                        afterComplete.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } finally {
                        HELD_AFTER_COMPLETE.remove(hold);
                    }
                });
                return;
            }
            request.getSession(false).setAttribute("value", value);
            switch (style) {
                case "flush" -> {
                    response.getWriter().print("flushed");
                    response.flushBuffer();
                }
                case "large" -> response.getOutputStream().write(new byte[64 * 1024]);
                case "content-length" -> {
                    response.setContentLength(2);
                    response.getWriter().print("ok");
                }
                case "redirect" -> response.sendRedirect("session?op=read");
                case "error" -> response.sendError(409, "conflict on purpose");
                default -> throw new IllegalArgumentException(style);
            }
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
