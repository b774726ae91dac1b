package io.hbasesessions.demo.shop;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.security.Principal;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/** Renders what one request sees of its session, as HTML for people and as text for scripts. */
final class ShopView {

    private final HttpSession session;
    private final Principal user;
    private final String node;
    private final String server;
    private final String message;
    private final String otherNode;

    ShopView(HttpServletRequest request, String node, String server) {
        this.session = request.getSession(false);
        this.user = request.getUserPrincipal();
        this.node = node;
        this.server = server;
        this.message = request.getParameter("message");
        this.otherNode = System.getProperty("hbase.sessions.demo.otherNode");
    }

    String asText() {
        StringBuilder text = new StringBuilder();
        text.append("node=").append(node).append('\n');
        text.append("server=").append(server).append('\n');
        text.append("user=").append(user == null ? "" : user.getName()).append('\n');
        text.append("session=").append(session == null ? "" : ShopServlet.fingerprint(session.getId())).append('\n');
        for (CartItem item : cart().items()) {
            text.append("item.").append(item.sku()).append('=').append(item.quantity()).append('\n');
        }
        return text.toString();
    }

    String asHtml() {
        StringBuilder html = new StringBuilder(4096);
        html.append("<!doctype html><html><head><meta charset=\"utf-8\"><title>hbase-sessions shop</title>")
                .append("<style>body{font-family:sans-serif;max-width:52em;margin:2em auto;padding:0 1em}")
                .append("table{border-collapse:collapse}td,th{padding:.2em .8em;border-bottom:1px solid #ddd;text-align:left}")
                .append(".node{background:#eef;padding:.6em 1em;border-radius:.4em}.msg{background:#efe;padding:.4em 1em}")
                .append("form{display:inline}</style></head><body>");
        html.append("<h1>hbase-sessions shop</h1>");
        html.append("<p class=\"node\">Served by <b>").append(escape(node)).append("</b> on ").append(escape(server));
        if (otherNode != null) {
            html.append(" &middot; <a href=\"").append(escape(otherNode)).append("\">open this page on the other node</a>");
        }
        html.append("</p>");
        if (message != null) {
            html.append("<p class=\"msg\">").append(escape(message)).append("</p>");
        }
        appendSession(html);
        appendCart(html);
        appendCatalogue(html);
        appendAccount(html);
        return html.append("</body></html>").toString();
    }

    private void appendSession(StringBuilder html) {
        html.append("<h2>Your session</h2>");
        if (session == null) {
            html.append("<p>No session yet: add something to the cart.</p>");
            return;
        }
        html.append("<table>")
                .append(row("Id fingerprint", ShopServlet.fingerprint(session.getId()) + " (changes when you log in)"))
                .append(row("Created", Instant.ofEpochMilli(session.getCreationTime()).toString()))
                .append(row("Last accessed", Instant.ofEpochMilli(session.getLastAccessedTime()).toString()))
                .append(row("Idle timeout", session.getMaxInactiveInterval() + " s"))
                .append(row("User", user == null ? "anonymous" : user.getName()));
        for (String name : Collections.list(session.getAttributeNames())) {
            html.append(row("Attribute " + name, String.valueOf(session.getAttribute(name))));
        }
        html.append("</table>");
    }

    private void appendCart(StringBuilder html) {
        List<CartItem> items = cart().items();
        html.append("<h2>Cart</h2>");
        if (items.isEmpty()) {
            html.append("<p>Empty.</p>");
            return;
        }
        html.append("<table><tr><th>Item</th><th>Qty</th><th>Total</th><th></th></tr>");
        for (CartItem item : items) {
            html.append("<tr><td>").append(escape(item.name())).append("</td><td>").append(item.quantity())
                    .append("</td><td>").append(euros(item.totalCents())).append("</td><td>")
                    .append(actionButton("remove", "Remove", "<input type=\"hidden\" name=\"sku\" value=\""
                            + escape(item.sku()) + "\">"))
                    .append("</td></tr>");
        }
        html.append("<tr><th>Total</th><td></td><th>").append(euros(cart().totalCents())).append("</th><td></td></tr></table>");
    }

    private static void appendCatalogue(StringBuilder html) {
        html.append("<h2>Catalogue</h2><table>");
        for (Product product : Product.CATALOGUE) {
            html.append("<tr><td>").append(escape(product.name())).append("</td><td>").append(euros(product.priceCents()))
                    .append("</td><td>").append(actionButton("add", "Add to cart",
                            "<input type=\"hidden\" name=\"sku\" value=\"" + escape(product.sku()) + "\">"
                                    + "<input type=\"number\" name=\"quantity\" value=\"1\" min=\"1\" max=\"99\" style=\"width:4em\"> "))
                    .append("</td></tr>");
        }
        html.append("</table>");
    }

    private void appendAccount(StringBuilder html) {
        html.append("<h2>Account</h2>");
        if (user == null) {
            html.append("<form method=\"post\" action=\"\"><input type=\"hidden\" name=\"action\" value=\"login\">")
                    .append("User <input name=\"user\" value=\"alice\" size=\"8\"> Password <input name=\"password\" ")
                    .append("type=\"password\" value=\"demo\" size=\"8\"> <button>Log in</button></form>")
                    .append("<p><small>Demo users: alice, bob, carol; password <code>demo</code>.</small></p>");
            return;
        }
        html.append("<p>Logged in as <b>").append(escape(user.getName())).append("</b>. ")
                .append(actionButton("logout", "Log out", ""))
                .append(" ").append(actionButton("logout-everywhere", "Log out everywhere", ""))
                .append("</p><p><small>\"Log out everywhere\" deletes every session of ").append(escape(user.getName()))
                .append(" in HBase: every browser, every node, Tomcat and Jetty alike.</small></p>");
    }

    private Cart cart() {
        Object cart = session == null ? null : session.getAttribute(Cart.ATTRIBUTE);
        return cart instanceof Cart existing ? existing : new Cart();
    }

    private static String actionButton(String action, String label, String fields) {
        return "<form method=\"post\" action=\"\"><input type=\"hidden\" name=\"action\" value=\"" + action + "\">"
                + fields + "<button>" + label + "</button></form>";
    }

    private static String row(String label, String value) {
        return "<tr><th>" + escape(label) + "</th><td>" + escape(value) + "</td></tr>";
    }

    private static String euros(long cents) {
        return String.format("&euro;%d.%02d", cents / 100, cents % 100);
    }

    private static String escape(String text) {
        StringBuilder escaped = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '<' -> escaped.append("&lt;");
                case '>' -> escaped.append("&gt;");
                case '&' -> escaped.append("&amp;");
                case '"' -> escaped.append("&quot;");
                case '\'' -> escaped.append("&#39;");
                default -> escaped.append(c);
            }
        }
        return escaped.toString();
    }
}
