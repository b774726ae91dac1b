package io.hbasesessions.testapp;

import io.hbasesessions.api.SessionRevoker;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.security.Principal;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One endpoint per session operation, answered as {@code key=value} lines so tests can read it.
 * {@code /session?op=put&name=cart&value=book}; see {@link #handle} for the operations.
 */
@WebServlet("/session")
public final class SessionServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("Cache-Control", "no-store");
        Map<String, String> out = new TreeMap<>();
        handle(request.getParameter("op"), request, out);
        PrintWriter writer = response.getWriter();
        out.forEach((key, value) -> writer.println(key + "=" + value));
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        doGet(request, response);
    }

    private void handle(String op, HttpServletRequest request, Map<String, String> out) throws ServletException {
        String name = request.getParameter("name");
        String value = request.getParameter("value");
        switch (op == null ? "get" : op) {
            case "create" -> request.getSession(true);
            case "get" -> { }
            case "put" -> request.getSession(true).setAttribute(name, new Note(value));
            case "listen" -> request.getSession(true).setAttribute(name, new ListeningNote(value));
            case "append" -> appendInPlace(request.getSession(true), name, value);
            case "incr" -> increment(request.getSession(true), name);
            case "remove" -> request.getSession(true).removeAttribute(name);
            case "touch" -> {
                request.getSession(false);
                return;
            }
            case "invalidate" -> {
                HttpSession session = request.getSession(false);
                if (session != null) {
                    session.invalidate();
                }
                out.put("invalidated", Boolean.toString(session != null));
                return;
            }
            case "change-id" -> {
                out.put("oldId", request.getSession(true).getId());
                out.put("newId", request.changeSessionId());
            }
            case "login" -> {
                request.getSession(true);
                request.login(request.getParameter("user"), request.getParameter("password"));
                request.changeSessionId();
            }
            case "logout" -> request.logout();
            case "whoami" -> {
                Principal principal = request.getUserPrincipal();
                out.put("user", principal == null ? "none" : principal.getName());
                return;
            }
            case "revoke-all" -> {
                out.put("revoked", Integer.toString(revokeAll(request.getParameter("user"))));
                return;
            }
            case "timeout" -> request.getSession(true)
                    .setMaxInactiveInterval(Integer.parseInt(request.getParameter("seconds")));
            case "events" -> {
                SessionEvents.snapshot().forEach((event, count) -> out.put(event, Long.toString(count)));
                return;
            }
            case "node" -> {
                out.put("node", System.getProperty("hbase.sessions.test.node", "unnamed"));
                out.put("server", getServletContext().getServerInfo());
                return;
            }
            default -> throw new ServletException("Unknown op '" + op + "'");
        }
        describe(request.getSession(false), request, out);
    }

    /** Through the revoker the session store publishes, as README tells an application to. */
    private int revokeAll(String user) throws ServletException {
        if (!(getServletContext().getAttribute(SessionRevoker.CONTEXT_ATTRIBUTE) instanceof SessionRevoker revoker)) {
            throw new ServletException("The session store publishes no " + SessionRevoker.CONTEXT_ATTRIBUTE);
        }
        return revoker.revokeAll(user);
    }

    private static void appendInPlace(HttpSession session, String name, String value) {
        NoteList notes = (NoteList) session.getAttribute(name);
        if (notes == null) {
            notes = new NoteList();
            session.setAttribute(name, notes);
        }
        notes.add(new Note(value));
    }

    private static void increment(HttpSession session, String name) {
        Integer count = (Integer) session.getAttribute(name);
        session.setAttribute(name, count == null ? 1 : count + 1);
    }

    private static void describe(HttpSession session, HttpServletRequest request, Map<String, String> out) {
        if (session == null) {
            out.put("id", "none");
            return;
        }
        out.put("id", session.getId());
        out.put("new", Boolean.toString(session.isNew()));
        out.put("creation", Long.toString(session.getCreationTime()));
        out.put("lastAccess", Long.toString(session.getLastAccessedTime()));
        out.put("maxInactive", Integer.toString(session.getMaxInactiveInterval()));
        Principal principal = request.getUserPrincipal();
        out.put("principal", principal == null ? "none" : principal.getName());
        for (String attribute : Collections.list(session.getAttributeNames())) {
            out.put("attr." + attribute, String.valueOf(session.getAttribute(attribute)));
        }
    }
}
