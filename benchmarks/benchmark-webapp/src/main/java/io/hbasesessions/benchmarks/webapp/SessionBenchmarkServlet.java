package io.hbasesessions.benchmarks.webapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code /init} creates the realistic session, {@code /read} only reads it, {@code /write} changes it,
 * {@code /invalidate} ends it (the propagation benchmark ends a session on one node and watches another);
 * each answer shows the session's visit counter ({@code visits=N}), which a failover run checks.
 * A request without its session answers 409, so a load generator that lost its cookie shows up as
 * errors instead of silently measuring session creation; so does one whose session lacks its cart (a store
 * may bring back an ended session's id without its attributes: Redisson's readMode=MEMORY writes the access
 * time of a session another node has just ended).
 */
public final class SessionBenchmarkServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    private final AtomicLong users = new AtomicLong();

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String operation = request.getServletPath();
        if (operation.equals("/init")) {
            HttpSession session = request.getSession(true);
            BenchmarkSession.attributes(users.incrementAndGet(), Instant.now()).forEach(session::setAttribute);
            answer(response, HttpServletResponse.SC_OK, "created visits=" + session.getAttribute(BenchmarkSession.VISITS));
            return;
        }
        HttpSession session = request.getSession(false);
        if (session == null || session.getAttribute(BenchmarkSession.CART) == null) {
            answer(response, HttpServletResponse.SC_CONFLICT, "no session");
            return;
        }
        if (operation.equals("/invalidate")) {
            session.invalidate();
            answer(response, HttpServletResponse.SC_OK, "invalidated");
            return;
        }
        if (operation.equals("/write")) {
            int visits = (Integer) session.getAttribute(BenchmarkSession.VISITS);
            BenchmarkSession.change(session::getAttribute, session::setAttribute, visits, Instant.now());
        }
        Cart cart = (Cart) session.getAttribute(BenchmarkSession.CART);
        answer(response, HttpServletResponse.SC_OK, "total=" + cart.totalCents() + " " + cart.currency() + " visits="
                + session.getAttribute(BenchmarkSession.VISITS));
    }

    /** With a Content-Length, never chunked: the Java load generator reads exactly that many bytes. */
    private static void answer(HttpServletResponse response, int status, String body) throws IOException {
        byte[] bytes = (body + "\n").getBytes(StandardCharsets.UTF_8);
        response.setStatus(status);
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }
}
