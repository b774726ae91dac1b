package io.hbasesessions.demo.shop;

import io.hbasesessions.api.SessionRevoker;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The whole shop: {@code GET /} shows the page, {@code POST /} performs one action and redirects
 * back, {@code GET /cart.txt} answers the same facts as plain text for scripts and tests.
 */
@WebServlet(urlPatterns = {"", "/cart.txt"})
public final class ShopServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader("Cache-Control", "no-store");
        ShopView view = new ShopView(request, nodeName(), getServletContext().getServerInfo());
        if (request.getServletPath().equals("/cart.txt")) {
            response.setContentType("text/plain;charset=UTF-8");
            response.getWriter().print(view.asText());
        } else {
            response.setContentType("text/html;charset=UTF-8");
            response.getWriter().print(view.asHtml());
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        request.setCharacterEncoding("UTF-8");
        String message;
        try {
            message = perform(request.getParameter("action"), request);
        } catch (ServletException | IllegalArgumentException e) {
            message = e.getMessage();
        }
        String target = request.getContextPath() + "/";
        response.sendRedirect(message == null ? target : target + "?message=" + java.net.URLEncoder.encode(message,
                StandardCharsets.UTF_8));
    }

    private String perform(String action, HttpServletRequest request) throws ServletException {
        switch (action == null ? "" : action) {
            case "add" -> {
                Product product = Product.bySku(request.getParameter("sku"))
                        .orElseThrow(() -> new IllegalArgumentException("No such product"));
                cart(request.getSession()).add(product, Math.max(1, parseQuantity(request.getParameter("quantity"))));
                return null;
            }
            case "remove" -> {
                cart(request.getSession()).remove(request.getParameter("sku"));
                return null;
            }
            case "login" -> {
                request.getSession();
                request.login(request.getParameter("user"), request.getParameter("password"));
                // A new id after login defeats session fixation; the session keeps its cart.
                request.changeSessionId();
                return "Logged in as " + request.getUserPrincipal().getName() + "; your session id was rotated";
            }
            case "logout" -> {
                HttpSession session = request.getSession(false);
                request.logout();
                if (session != null) {
                    session.invalidate();
                }
                return "Logged out of this browser";
            }
            case "logout-everywhere" -> {
                return logOutEverywhere(request);
            }
            default -> throw new IllegalArgumentException("Unknown action");
        }
    }

    private String logOutEverywhere(HttpServletRequest request) throws ServletException {
        if (request.getUserPrincipal() == null) {
            return "Log in first";
        }
        String user = request.getUserPrincipal().getName();
        if (!(getServletContext().getAttribute(SessionRevoker.CONTEXT_ATTRIBUTE) instanceof SessionRevoker revoker)) {
            return "This container's session manager cannot revoke sessions";
        }
        int revoked = revoker.revokeAll(user);
        request.logout();
        HttpSession session = request.getSession(false);
        if (session != null) {
            session.invalidate();
        }
        return "Revoked " + revoked + " session(s) of " + user + " on every node";
    }

    private static Cart cart(HttpSession session) {
        Cart cart = (Cart) session.getAttribute(Cart.ATTRIBUTE);
        if (cart == null) {
            cart = new Cart();
            session.setAttribute(Cart.ATTRIBUTE, cart);
        }
        return cart;
    }

    private static int parseQuantity(String text) {
        try {
            return Math.min(99, Integer.parseInt(text));
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static String nodeName() {
        return System.getProperty("hbase.sessions.demo.node", "unnamed node");
    }

    /**
     * Shown instead of the id itself, which is a bearer token; it changes when the id rotates. The
     * container's route suffix (Jetty's {@code .node0}, Tomcat's {@code .jvmRoute}) is left out, as the
     * session stores leave it out of the row key: one session shows one fingerprint on every node.
     */
    static String fingerprint(String sessionId) {
        int routeStart = sessionId.indexOf('.');
        String id = routeStart < 0 ? sessionId : sessionId.substring(0, routeStart);
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides SHA-256", e);
        }
    }
}
