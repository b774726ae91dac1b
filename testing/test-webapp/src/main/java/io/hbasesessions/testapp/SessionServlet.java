package io.hbasesessions.testapp;

import io.hbasesessions.api.SessionRevoker;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;
import java.util.Collections;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * One endpoint per session operation, answered as {@code key=value} lines so tests can read it.
 * {@code /session?op=put&name=cart&value=book}; see {@link #handle} for the operations. Most answers
 * describe the session afterwards ({@code id} or {@code id=none}, {@code attr.<name>} per attribute).
 *
 * <p>With {@code await=NAME} a request first looks its session up, then waits at the {@link Gates gate}
 * NAME until {@code /gate?open=NAME}, then does its operation. With {@code work=MS}, {@code incr} works
 * that long between reading the counter and writing it back.
 *
 * <p>{@code op=tag&tag=T&seconds=S} gives the session the String attribute {@code tag=T}, a
 * {@link ListeningNote} of T and a max-inactive interval of S seconds; {@code op=endings} answers which
 * sessions ended on this node and what their listeners saw ({@link SessionEndings}).
 */
@WebServlet("/session")
public final class SessionServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    /** The session attribute an application login keeps its user in: the nodes' {@code principalAttribute}. */
    public static final String APP_USER = "appUser";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        Map<String, String> out = new TreeMap<>();
        String gate = request.getParameter("await");
        if (gate != null) {
            request.getSession(false);
            try {
                Gates.await(gate);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServletException("Interrupted at gate " + gate, e);
            }
        }
        handle(request.getParameter("op"), request, out);
        Object early = request.getAttribute(EarlyLookupListener.FOUND);
        if (early != null) {
            out.put("earlyLookup", early.toString());
        }
        Answers.write(response, out);
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
            case "incr" -> increment(request.getSession(true), name, request);
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
                out.put("authType", String.valueOf(request.getAuthType()));
                String role = request.getParameter("role");
                if (role != null) {
                    out.put("inRole", Boolean.toString(request.isUserInRole(role)));
                }
                HttpSession session = request.getSession(false);
                Object appUser = session == null ? null : session.getAttribute(APP_USER);
                out.put("appUser", appUser == null ? "none" : appUser.toString());
                return;
            }
            case "app-login" -> {
                // An application that logs users in itself: the user is a session attribute (principalAttribute).
                request.getSession(true).setAttribute(APP_USER, appUser(request.getParameter("user"),
                        request.getParameter("as")));
                request.changeSessionId();
            }
            case "app-logout" -> request.getSession(true).removeAttribute(APP_USER);
            case "renew" -> {
                HttpSession old = request.getSession(true);
                out.put("oldId", old.getId());
                old.invalidate();
                request.getSession(true).setAttribute(name == null ? "renewed" : name, new Note(String.valueOf(value)));
            }
            case "big" -> {
                // Larger than maxSessionBytes: the save must fail, and this request's other change with it.
                byte[] blob = new byte[Integer.parseInt(request.getParameter("bytes"))];
                new Random().nextBytes(blob);
                HttpSession session = request.getSession(true);
                session.setAttribute("alsoChanged", new Note(String.valueOf(value)));
                session.setAttribute("blob", blob);
            }
            case "unserializable" -> {
                HttpSession session = request.getSession(true);
                session.setAttribute("alsoChanged", new Note(String.valueOf(value)));
                session.setAttribute("unserializable", new Unserializable());
            }
            case "revoke-all" -> {
                out.put("revoked", Integer.toString(revokeAll(request.getParameter("user"))));
                return;
            }
            case "timeout" -> request.getSession(true)
                    .setMaxInactiveInterval(Integer.parseInt(request.getParameter("seconds")));
            case "tag" -> {
                // All a session needs for SessionEndings to tell its end apart, in the request that makes it.
                HttpSession session = request.getSession(true);
                String tag = request.getParameter(SessionEndings.TAG);
                session.setAttribute(SessionEndings.TAG, tag);
                session.setAttribute(SessionEndings.LISTENER, new ListeningNote(tag));
                session.setMaxInactiveInterval(Integer.parseInt(request.getParameter("seconds")));
            }
            case "events" -> {
                SessionEvents.snapshot().forEach((event, count) -> out.put(event, Long.toString(count)));
                return;
            }
            case "endings" -> {
                SessionEndings.describe(out);
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

    /** Through the {@link SessionRevoker} the session store publishes, as README tells applications to. */
    private int revokeAll(String user) throws ServletException {
        Object revoker = getServletContext().getAttribute(SessionRevoker.CONTEXT_ATTRIBUTE);
        if (!(revoker instanceof SessionRevoker)) {
            throw new ServletException("The session store publishes no " + SessionRevoker.CONTEXT_ATTRIBUTE);
        }
        return ((SessionRevoker) revoker).revokeAll(user);
    }

    /** The user as an application keeps it: a name, a Principal of its own, or a Spring Security-like context. */
    private static Object appUser(String user, String as) throws ServletException {
        return switch (as == null ? "string" : as) {
            case "string" -> user;
            case "principal" -> new AppPrincipal(user);
            case "spring" -> new SecurityContextLike(user);
            default -> throw new ServletException("Unknown user form '" + as + "': string, principal or spring");
        };
    }

    private static void appendInPlace(HttpSession session, String name, String value) {
        NoteList notes = (NoteList) session.getAttribute(name);
        if (notes == null) {
            notes = new NoteList();
            session.setAttribute(name, notes);
        }
        notes.add(new Note(value));
    }

    private static void increment(HttpSession session, String name, HttpServletRequest request) {
        Integer count = (Integer) session.getAttribute(name);
        Answers.work(request);
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
