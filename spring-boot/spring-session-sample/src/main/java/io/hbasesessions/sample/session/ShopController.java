package io.hbasesessions.sample.session;

import io.hbasesessions.spring.session.HBaseIndexedSessionRepository;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.security.Principal;
import java.util.TreeMap;
import org.springframework.http.MediaType;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.session.Session;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Plain-text pages, one {@code name=value} per line, so that a test (or curl) can read them. */
@RestController
public class ShopController {

    private static final String CART = "cart";

    private final HBaseIndexedSessionRepository sessions;

    public ShopController(HBaseIndexedSessionRepository sessions) {
        this.sessions = sessions;
    }

    @GetMapping(value = "/", produces = MediaType.TEXT_PLAIN_VALUE)
    public String home(HttpServletRequest request, Principal user) {
        return "server=" + request.getServletContext().getServerInfo() + "\nspringSession="
                + Session.class.getPackage().getImplementationVersion() + "\nuser=" + (user == null ? "" : user.getName())
                + "\n";
    }

    /** The user's page: the cart, how many sessions the user has on all nodes, and the CSRF token for its forms. */
    @GetMapping(value = "/account", produces = MediaType.TEXT_PLAIN_VALUE)
    public String account(Principal user, HttpSession session, CsrfToken csrf) {
        return "user=" + user.getName() + "\ncart=" + cartOf(session) + "\nsessions="
                + sessions.findByPrincipalName(user.getName()).size() + "\ncsrf=" + csrf.getToken() + "\n";
    }

    /**
     * Adds an article and redirects to the account page (of this application's context path, which a WAR has): the
     * session must be saved before the redirect leaves.
     */
    @PostMapping("/cart")
    public void add(@RequestParam String sku, HttpServletRequest request, HttpSession session,
            HttpServletResponse response) throws IOException {
        TreeMap<String, Integer> cart = cartOf(session);
        cart.merge(sku, 1, Integer::sum);
        session.setAttribute(CART, cart);
        response.sendRedirect(request.getContextPath() + "/account");
    }

    /** "Log out everywhere": ends every session of the user, on every node (and this one). */
    @PostMapping(value = "/account/revoke", produces = MediaType.TEXT_PLAIN_VALUE)
    public String logOutEverywhere(Principal user) {
        return "revoked=" + sessions.revokeAll(user.getName()) + "\n";
    }

    @SuppressWarnings("unchecked")
    private static TreeMap<String, Integer> cartOf(HttpSession session) {
        Object cart = session.getAttribute(CART);
        return cart == null ? new TreeMap<>() : (TreeMap<String, Integer>) cart;
    }
}
