package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Wrapper;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What one request does with the manager, seen from inside one Tomcat (both 10.1 and 11, by the
 * module's two test runs): its session is saved before any byte of its response is committed,
 * however the response commits; it is looked up once however many times and places ask; a lookup
 * made before the manager's valve ran is still saved; a new session never reuses an id.
 */
@ExtendWith(HBaseExtension.class)
class RequestScopeTest {

    @TempDir
    Path directory;
    private Tomcat tomcat;
    private HBaseSessionManager manager;

    @AfterEach
    void stopTomcat() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
    }

    /**
     * The servlet sets a value, commits its response one way or another, then keeps working for a while
     * before it returns. The client asks again the moment the response's headers arrive: the value must
     * already be stored. Servlet 6.1's redirect forms are tried on Tomcat 11 only.
     */
    @ParameterizedTest
    @ValueSource(strings = {"flush", "large", "content-length", "redirect", "redirect-6.1", "error", "async"})
    void theSessionIsSavedBeforeTheResponseIsCommitted(String style, EmbeddedHBase hbase, TestNamespace namespace)
            throws Exception {
        URI servlet = start(TestManagers.manager(hbase, namespace));
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=first");
        String cookie = browser.cookie();
        HttpClient client = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        for (int round = 0; round < 5; round++) {
            HttpResponse<InputStream> committed = client.send(HttpRequest.newBuilder(
                    URI.create(servlet + "?op=commit&style=" + style + "&value=v" + round))
                    .header("Cookie", "JSESSIONID=" + cookie).build(), HttpResponse.BodyHandlers.ofInputStream());
            assertTrue(committed.statusCode() < 500, style + " answered " + committed.statusCode());
            assertEquals("v" + round, Browser.withCookie(cookie).get(servlet, "op=read").body(),
                    style + ": the change was not stored when the headers arrived");
            committed.body().readAllBytes();
        }
    }

    @Test
    void aSessionLookedUpByARequestListenerBeforeTheValveIsStillSaved(EmbeddedHBase hbase, TestNamespace namespace)
            throws Exception {
        URI servlet = start(TestManagers.manager(hbase, namespace));
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=0");
        for (int i = 1; i <= 4; i++) {
            send(URI.create(servlet + "?op=put&value=" + i), "JSESSIONID=" + browser.cookie(), "X-Early-Lookup");
            assertEquals(String.valueOf(i), browser.get(servlet, "op=read").body());
        }
    }

    /** The connector checks every session cookie of a request; 150 copies of one still load it once. */
    @Test
    void aRequestWith150CopiesOfItsCookieLoadsItsSessionOnce(EmbeddedHBase hbase, TestNamespace namespace)
            throws Exception {
        URI servlet = start(TestManagers.manager(hbase, namespace));
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=x");
        String cookies = String.join("; ", Collections.nCopies(150, "JSESSIONID=" + browser.cookie()));
        long loadsBefore = manager.counters().get(StoreCounter.LOADS);

        assertEquals("x", send(URI.create(servlet + "?op=read"), cookies, "X-Nothing"));
        assertEquals(1, manager.counters().get(StoreCounter.LOADS) - loadsBefore);
    }

    /** Issue #10 item 5: after invalidate() the next session of the request gets a fresh id, never the old one. */
    @Test
    void aSessionCreatedAfterAnInvalidationHasAFreshId(EmbeddedHBase hbase, TestNamespace namespace) {
        URI servlet = start(TestManagers.manager(hbase, namespace));
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=before");
        String before = browser.cookie();

        Answer renewed = browser.get(servlet, "op=invalidate-and-create");
        assertNotEquals(SessionIds.withoutRoute(before), SessionIds.withoutRoute(renewed.body()));
        assertEquals(SessionIds.withoutRoute(renewed.body()), browser.sessionId());
        assertEquals("null", Browser.withCookie(before).get(servlet, "op=read").body(), "the old session is gone");
    }

    /** Issue #10 item 8: only the last '.' segment is a route; the session reports its id with this node's route. */
    @Test
    void onlyTheContainersOwnRouteFormOpensASession(EmbeddedHBase hbase, TestNamespace namespace) {
        URI servlet = start(TestManagers.manager(hbase, namespace));
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=mine");
        String id = browser.sessionId();

        assertEquals("mine", Browser.withCookie(id + ".othernode").get(servlet, "op=read").body());
        assertEquals(id + ".r1", Browser.withCookie(id + ".othernode").get(servlet, "op=id").body());
        for (String forged : new String[] {id + ".a.b", id + "." + id + ".x", id.substring(1) + ".r1", id + "x.r1"}) {
            assertEquals("null", Browser.withCookie(forged).get(servlet, "op=read").body(), forged);
        }
    }

    @Test
    void repeatedLookupsInOneRequestTakeOnePessimisticLease(EmbeddedHBase hbase, TestNamespace namespace) {
        HBaseSessionManager pessimistic = TestManagers.manager(hbase, namespace);
        pessimistic.setProperty("lockingMode", "pessimistic");
        pessimistic.setProperty("operationTimeoutMillis", "3000");
        URI servlet = start(pessimistic);
        Browser browser = new Browser();
        browser.get(servlet, "op=put&value=done");
        for (int i = 0; i < 5; i++) {
            Answer answer = browser.get(servlet, "op=look-twice");
            assertEquals("valid=true value=done", answer.body());
            assertTrue(answer.elapsed().compareTo(Duration.ofSeconds(1)) < 0, "answered in " + answer.elapsed());
        }
    }

    /** A GET with the given Cookie header and one marker header, answered with its body. */
    private static String send(URI target, String cookieHeader, String markerHeader) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(target).header("Cookie", cookieHeader)
                .header(markerHeader, "1").build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    private URI start(HBaseSessionManager sessionManager) {
        try {
            manager = sessionManager;
            tomcat = new Tomcat();
            tomcat.setBaseDir(directory.toString());
            tomcat.setPort(0);
            tomcat.getEngine().setJvmRoute("r1");
            Context context = tomcat.addContext("/scope", directory.toString());
            context.setManager(sessionManager);
            context.addServletContainerInitializer((classes, servletContext) ->
                    servletContext.addListener(new EarlyLookupListener()), null);
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

    /** Looks the session up before the context's valves run, as an application listener may. */
    static final class EarlyLookupListener implements ServletRequestListener {
        @Override
        public void requestInitialized(ServletRequestEvent event) {
            HttpServletRequest request = (HttpServletRequest) event.getServletRequest();
            if (request.getHeader("X-Early-Lookup") != null) {
                request.getSession(false);
            }
        }
    }

    /** Answers {@code ?op=}: put, read, id, commit (with a style), invalidate-and-create, look-twice. */
    static final class ScopeServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;
        private static final int LARGER_THAN_THE_BUFFER = 64 * 1024;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            switch (request.getParameter("op")) {
                case "put" -> request.getSession(true).setAttribute("value", request.getParameter("value"));
                case "read" -> {
                    HttpSession session = request.getSession(false);
                    response.getWriter().print(session == null ? null : session.getAttribute("value"));
                }
                case "id" -> response.getWriter().print(request.getSession(false).getId());
                case "commit" -> commit(request, response, request.getParameter("style"));
                case "invalidate-and-create" -> {
                    request.getSession(false).invalidate();
                    response.getWriter().print(request.getSession(true).getId());
                }
                case "look-twice" -> response.getWriter().print("valid=" + request.isRequestedSessionIdValid()
                        + " value=" + request.getSession(false).getAttribute("value"));
                default -> response.sendError(400);
            }
        }

        private static void commit(HttpServletRequest request, HttpServletResponse response, String style)
                throws IOException {
            String value = request.getParameter("value");
            if (style.equals("async")) {
                AsyncContext async = request.startAsync();
                async.start(() -> {
                    request.getSession(false).setAttribute("value", value);
                    async.complete();
                    slowWork();
                });
                return;
            }
            request.getSession(false).setAttribute("value", value);
            switch (style) {
                case "flush" -> {
                    response.getWriter().print("flushed");
                    response.flushBuffer();
                }
                case "large" -> response.getOutputStream().write(new byte[LARGER_THAN_THE_BUFFER]);
                case "content-length" -> {
                    response.setContentLength(2);
                    response.getWriter().print("ok");
                }
                case "redirect" -> response.sendRedirect("session?op=read");
                case "redirect-6.1" -> redirectAs61(request, response);
                case "error" -> response.sendError(409, "conflict on purpose");
                default -> throw new IllegalArgumentException(style);
            }
            slowWork();
        }

        /** {@code sendRedirect(location, 303)} where the container has Servlet 6.1 (Tomcat 11); the classic form elsewhere. */
        private static void redirectAs61(HttpServletRequest request, HttpServletResponse response) throws IOException {
            if (request.getServletContext().getMinorVersion() < 1) {
                response.sendRedirect("session?op=read");
                return;
            }
            try {
                Method redirect = HttpServletResponse.class.getMethod("sendRedirect", String.class, int.class);
                redirect.invoke(response, "session?op=read", 303);
            } catch (ReflectiveOperationException e) {
                throw new IOException(e);
            }
        }

        private static void slowWork() {
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
