package io.hbasesessions.sample.boot;

import io.hbasesessions.api.SessionRevoker;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;
import java.util.concurrent.Callable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Plain-text pages, one {@code name=value} per line, so that a test (or curl) can read them. */
@RestController
public class ShopController {

    private static final String CART = "cart";

    /** Absent with {@code hbase.sessions.enabled=false}: the server's own sessions cannot be revoked everywhere. */
    private final ObjectProvider<SessionRevoker> revoker;

    public ShopController(ObjectProvider<SessionRevoker> revoker) {
        this.revoker = revoker;
    }

    @GetMapping(value = "/", produces = MediaType.TEXT_PLAIN_VALUE)
    public String home(HttpServletRequest request, Principal user) {
        return "server=" + request.getServletContext().getServerInfo() + "\nuser=" + (user == null ? "" : user.getName())
                + "\n";
    }

    /** The logged-in user's page, with the CSRF token the forms of this page would carry. */
    @GetMapping(value = "/account", produces = MediaType.TEXT_PLAIN_VALUE)
    public String account(HttpServletRequest request, Principal user, HttpSession session, CsrfToken csrf) {
        return "server=" + request.getServletContext().getServerInfo() + "\nuser=" + user.getName()
                + "\ncart=" + cartOf(session) + "\ncsrf=" + csrf.getToken() + "\n";
    }

    /** Adds an article and redirects to the account page: the session must be saved before the redirect leaves. */
    @PostMapping("/cart")
    public void add(@RequestParam String sku, HttpSession session, HttpServletResponse response) throws IOException {
        Cart cart = cartOf(session);
        cart.add(sku);
        session.setAttribute(CART, cart);
        response.sendRedirect("/account");
    }

    /**
     * Adds an article on another thread (Spring MVC's async request processing) and answers from there:
     * the session must be saved before that answer leaves, though the request's own thread is long gone.
     */
    @PostMapping(value = "/cart/later", produces = MediaType.TEXT_PLAIN_VALUE)
    public Callable<String> addLater(@RequestParam String sku, HttpSession session) {
        return () -> {
            Cart cart = cartOf(session);
            cart.add(sku);
            session.setAttribute(CART, cart);
            return "cart=" + cart + "\n";
        };
    }

    /** "Log out everywhere" for one user: every session of that user, on every node, ends. */
    @PostMapping(value = "/admin/revoke", produces = MediaType.TEXT_PLAIN_VALUE)
    public ResponseEntity<String> revoke(@RequestParam String user) {
        SessionRevoker sessions = revoker.getIfAvailable();
        if (sessions == null) {
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body("Sessions are not stored in HBase here\n");
        }
        return ResponseEntity.ok("revoked=" + sessions.revokeAll(user) + "\n");
    }

    private static Cart cartOf(HttpSession session) {
        Object cart = session.getAttribute(CART);
        return cart instanceof Cart existing ? existing : new Cart();
    }
}
