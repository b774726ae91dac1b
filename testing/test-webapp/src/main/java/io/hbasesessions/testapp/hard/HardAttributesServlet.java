package io.hbasesessions.testapp.hard;

import io.hbasesessions.testapp.Answers;
import io.hbasesessions.testapp.Gates;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The hard attributes over HTTP, answered as {@code key=value} lines:
 * <ul>
 *   <li>{@code op=put}: stores every one of {@link HardAttributes#NAMES} (in a new session if need be);</li>
 *   <li>{@code op=mutate&round=N}: changes them in place, never calling {@code setAttribute};</li>
 *   <li>{@code op=read}: reads every one and changes nothing;</li>
 *   <li>{@code op=check&rounds=N}: {@code check.<name>=ok} or the broken invariant, and {@code state.<name>};</li>
 *   <li>{@code op=map-set&key=K&value=V}: {@code grownMap.put(K, V)} in place;</li>
 *   <li>{@code op=map-read&key=K&await=G&name=N&value=V}: reads {@code grownMap}, waits at the
 *       {@link Gates gate} G, then sets another attribute {@code N}: a request that only read the map, but
 *       does write;</li>
 *   <li>{@code op=bomb&label=L}: stores a {@link Bomb}; {@code op=arm} / {@code op=disarm}: makes it
 *       unreadable on this node, or readable again.</li>
 * </ul>
 * Every answer has {@code id}, the session's id, or {@code none}.
 */
@WebServlet("/hard")
public final class HardAttributesServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        Map<String, String> out = new LinkedHashMap<>();
        String op = String.valueOf(request.getParameter("op"));
        switch (op) {
            case "put" -> HardAttributes.put(request.getSession(true), getServletContext().getClassLoader());
            case "mutate" -> HardAttributes.mutate(existing(request), Answers.intParameter(request, "round", 1));
            case "read" -> out.put("read", Integer.toString(HardAttributes.read(existing(request))));
            case "check" -> out.putAll(HardAttributes.check(existing(request), Answers.intParameter(request, "rounds", 0)));
            case "map-set" -> grownMap(existing(request)).put(request.getParameter("key"), request.getParameter("value"));
            case "map-read" -> {
                HttpSession session = existing(request);
                out.put("read", String.valueOf(grownMap(session).get(request.getParameter("key"))));
                awaitGate(request);
                session.setAttribute(request.getParameter("name"), request.getParameter("value"));
            }
            case "bomb" -> request.getSession(true).setAttribute("bomb", new Bomb(request.getParameter("label")));
            case "arm" -> Bomb.arm(true);
            case "disarm" -> Bomb.arm(false);
            default -> throw new ServletException("Unknown op '" + op + "'");
        }
        HttpSession session = request.getSession(false);
        out.put("id", session == null ? "none" : session.getId());
        Answers.write(response, out);
    }

    private static void awaitGate(HttpServletRequest request) throws ServletException {
        String gate = request.getParameter("await");
        if (gate != null) {
            try {
                Gates.await(gate);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ServletException("Interrupted at gate " + gate, e);
            }
        }
    }

    private static HttpSession existing(HttpServletRequest request) throws ServletException {
        HttpSession session = request.getSession(false);
        if (session == null) {
            throw new ServletException("No session");
        }
        return session;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> grownMap(HttpSession session) {
        return (Map<String, String>) session.getAttribute("grownMap");
    }
}
