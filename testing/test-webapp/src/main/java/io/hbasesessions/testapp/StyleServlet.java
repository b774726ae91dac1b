package io.hbasesessions.testapp;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * One session change, answered in one of the ways a response gets committed: {@code /style?kind=K}
 * with {@code name=N&value=V} (sets attribute N, default {@code v}, to the string V) or {@code incr=N}
 * (increments the Integer attribute N), or {@code readOnly=true} (only reads attribute N). {@code work=MS} is slow work done after the answer is committed
 * (or, for {@code plain}, after it is written): a save that waits for the request to end comes too late;
 * {@code holdAfterCommit=GATE} instead holds the request after its committed answer until the client releases
 * the {@link Gates gate}, so the client reads what it wants while the request certainly still runs.
 * The kinds ({@link #KINDS}):
 * <ul>
 *   <li>{@code plain}: through the writer, committed when the request ends;</li>
 *   <li>{@code content-length}: committed when the last of Content-Length bytes is written;</li>
 *   <li>{@code large}: a body larger than any container's buffer, committed while it is written;</li>
 *   <li>{@code flush}: {@code flushBuffer()} after the first line;</li>
 *   <li>{@code redirect}: {@code sendRedirect} (302);</li>
 *   <li>{@code send-error}: {@code sendError(409)};</li>
 *   <li>{@code error-page}: an exception that web.xml maps to {@code /error-page} (500);</li>
 *   <li>{@code async-complete}: the change is made on another thread, which answers and calls {@code complete()};</li>
 *   <li>{@code async-dispatch}: the change is made on another thread, which dispatches back here to answer.</li>
 * </ul>
 * The asynchronous kinds touch the session on the other thread only: that is where it is first looked up.
 */
@WebServlet(urlPatterns = "/style", asyncSupported = true)
public final class StyleServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    public static final List<String> KINDS = List.of("plain", "content-length", "large", "flush", "redirect",
            "send-error", "error-page", "async-complete", "async-dispatch");
    /** The body the change produced, for a second pass (async dispatch, error page) to answer with. */
    static final String BODY = StyleServlet.class.getName() + ".body";
    private static final int LARGE_BODY_CHARS = 256 * 1024;

    private transient ExecutorService worker;

    @Override
    public void init() {
        worker = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "test-webapp-async");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void destroy() {
        worker.shutdownNow();
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        if (request.getDispatcherType() == DispatcherType.ASYNC) {
            Answers.writeWithLength(response, (String) request.getAttribute(BODY));
            Answers.workAfterAnswering(request, response.isCommitted());
            return;
        }
        String hold = request.getParameter(Gates.HOLD_AFTER_COMMIT);
        if (hold != null) {
            Gates.expect(hold);
        }
        String kind = String.valueOf(request.getParameter("kind"));
        switch (kind) {
            case "async-complete" -> {
                int workMillis = Answers.intParameter(request, "work", 0);
                AsyncContext async = request.startAsync();
                worker.execute(() -> {
                    try {
                        Answers.writeWithLength((HttpServletResponse) async.getResponse(),
                                change((HttpServletRequest) async.getRequest()));
                    } catch (IOException | RuntimeException e) {
                        log("async-complete failed", e);
                    } finally {
                        async.complete();
                    }
                    // After complete() the request is gone: only its copied parameters are left.
                    if (hold == null) {
                        Answers.sleep(workMillis);
                    } else {
                        Gates.awaitUninterrupted(hold);
                    }
                });
                return;
            }
            case "async-dispatch" -> {
                AsyncContext async = request.startAsync();
                worker.execute(() -> {
                    async.getRequest().setAttribute(BODY, change((HttpServletRequest) async.getRequest()));
                    async.dispatch();
                });
                return;
            }
            default -> {
                // Below.
            }
        }
        String body = change(request);
        switch (kind) {
            case "plain" -> {
                Answers.plainText(response);
                response.getWriter().print(body);
            }
            case "content-length" -> Answers.writeWithLength(response, body);
            case "large" -> {
                Answers.plainText(response);
                PrintWriter writer = response.getWriter();
                writer.print(body);
                writer.print(filler());
            }
            case "flush" -> {
                Answers.plainText(response);
                response.getWriter().print(body);
                response.flushBuffer();
            }
            case "redirect" -> response.sendRedirect("session?op=get");
            case "send-error" -> response.sendError(HttpServletResponse.SC_CONFLICT, "an error answer; the change stays");
            case "error-page" -> {
                request.setAttribute(BODY, body);
                throw new ConformanceFailure("mapped to /error-page by web.xml");
            }
            default -> throw new ServletException("Unknown kind '" + kind + "'; known: " + KINDS);
        }
        // After sendError the response counts as committed, but the container writes the error answer later.
        Answers.workAfterAnswering(request, response.isCommitted() && !kind.equals("send-error"));
        if (kind.equals("flush")) {
            response.getWriter().print("after-flush=true\n");
        }
    }

    /** The request's session change (with {@code readOnly=true}, only a read); returns the lines to answer with. */
    private static String change(HttpServletRequest request) {
        if ("true".equals(request.getParameter("readOnly"))) {
            HttpSession session = request.getSession(false);
            String name = request.getParameter("name") == null ? "v" : request.getParameter("name");
            return "value=" + (session == null ? "none" : session.getAttribute(name)) + "\n";
        }
        HttpSession session = request.getSession(true);
        String counter = request.getParameter("incr");
        if (counter != null) {
            Integer count = (Integer) session.getAttribute(counter);
            int next = count == null ? 1 : count + 1;
            session.setAttribute(counter, next);
            return "count=" + next + "\nid=" + session.getId() + "\n";
        }
        String value = request.getParameter("value");
        String name = request.getParameter("name") == null ? "v" : request.getParameter("name");
        session.setAttribute(name, value);
        return "value=" + value + "\nid=" + session.getId() + "\n";
    }

    private static String filler() {
        StringBuilder filler = new StringBuilder(LARGE_BODY_CHARS + 80);
        while (filler.length() < LARGE_BODY_CHARS) {
            filler.append("filler=0123456789012345678901234567890123456789012345678901234567890123456789\n");
        }
        return filler.toString();
    }
}
