package io.hbasesessions.testapp;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.lang.reflect.Method;

/**
 * What one request does with its session, for the adapter contract suite: {@code /scope?op=} put
 * ({@code value}), read, id, commit (a {@code style} of committing the response, then slow work),
 * invalidate-and-create, look-twice, too-large ({@code bytes} of one attribute). Values are plain
 * strings under the attribute {@code value}.
 */
@WebServlet(urlPatterns = "/scope", asyncSupported = true)
public final class ScopeServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final int LARGER_THAN_THE_BUFFER = 64 * 1024;
    private static final int SLOW_WORK_MILLIS = 300;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        switch (String.valueOf(request.getParameter("op"))) {
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
            case "too-large" -> {
                request.getSession(false).setAttribute("upload",
                        "x".repeat(Answers.intParameter(request, "bytes", 0)));
                response.getWriter().print("written anyway");
            }
            default -> response.sendError(400);
        }
    }

    private static void commit(HttpServletRequest request, HttpServletResponse response, String style)
            throws IOException {
        String value = request.getParameter("value");
        if (style.equals("async")) {
            String hold = request.getParameter(Gates.HOLD_AFTER_COMMIT);
            if (hold != null) {
                Gates.expect(hold);
            }
            AsyncContext async = request.startAsync();
            async.start(() -> {
                request.getSession(false).setAttribute("value", value);
                async.complete();
                if (hold == null) {
                    Answers.sleep(SLOW_WORK_MILLIS);
                } else {
                    Gates.awaitUninterrupted(hold);
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
            case "large" -> response.getOutputStream().write(new byte[LARGER_THAN_THE_BUFFER]);
            case "content-length" -> {
                response.setContentLength(2);
                response.getWriter().print("ok");
            }
            case "redirect" -> response.sendRedirect("scope?op=read");
            case "redirect-6.1" -> redirectAs61(request, response);
            case "error" -> response.sendError(409, "conflict on purpose");
            default -> throw new IllegalArgumentException(style);
        }
        Answers.sleep(SLOW_WORK_MILLIS);
    }

    /** {@code sendRedirect(location, 303)} where the container has Servlet 6.1 (Tomcat 11); the classic form elsewhere. */
    private static void redirectAs61(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (request.getServletContext().getMinorVersion() < 1) {
            response.sendRedirect("scope?op=read");
            return;
        }
        try {
            Method redirect = HttpServletResponse.class.getMethod("sendRedirect", String.class, int.class);
            redirect.invoke(response, "scope?op=read", 303);
        } catch (ReflectiveOperationException e) {
            throw new IOException(e);
        }
    }
}
