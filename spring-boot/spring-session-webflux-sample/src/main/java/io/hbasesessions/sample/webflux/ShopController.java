package io.hbasesessions.sample.webflux;

import io.hbasesessions.spring.session.ReactiveHBaseIndexedSessionRepository;
import java.net.URI;
import java.security.Principal;
import java.util.TreeMap;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.session.Session;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;

/** Plain-text pages, one {@code name=value} per line, so that a test (or curl) can read them. */
@RestController
public class ShopController {

    private static final String CART = "cart";

    private final ReactiveHBaseIndexedSessionRepository sessions;

    public ShopController(ReactiveHBaseIndexedSessionRepository sessions) {
        this.sessions = sessions;
    }

    /** The server's request type (Reactor Netty's), Spring Session's version and the user, if logged in. */
    @GetMapping(value = "/", produces = MediaType.TEXT_PLAIN_VALUE)
    public Mono<String> home(ServerWebExchange exchange) {
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
        return exchange.getPrincipal().map(Principal::getName).defaultIfEmpty("").map(user -> "server="
                + nativeRequest.getClass().getName() + "\nspringSession="
                + Session.class.getPackage().getImplementationVersion() + "\nuser=" + user + "\n");
    }

    /** The user's page: the cart, how many sessions the user has on all nodes, and the CSRF token for its forms. */
    @GetMapping(value = "/account", produces = MediaType.TEXT_PLAIN_VALUE)
    public Mono<String> account(Principal user, WebSession session, ServerWebExchange exchange) {
        Mono<CsrfToken> csrf = exchange.getAttribute(CsrfToken.class.getName());
        return csrf.zipWith(sessions.findByPrincipalName(user.getName()), (token, userSessions) -> "user="
                + user.getName() + "\ncart=" + cartOf(session) + "\nsessions=" + userSessions.size() + "\ncsrf="
                + token.getToken() + "\n");
    }

    /** Adds an article and redirects to the account page: the session is saved before the redirect leaves. */
    @PostMapping("/cart")
    public Mono<Void> add(ServerWebExchange exchange, WebSession session) {
        return exchange.getFormData().flatMap(form -> {
            TreeMap<String, Integer> cart = cartOf(session);
            cart.merge(form.getFirst("sku"), 1, Integer::sum);
            session.getAttributes().put(CART, cart);
            ServerHttpResponse response = exchange.getResponse();
            response.setStatusCode(HttpStatus.FOUND);
            response.getHeaders().setLocation(URI.create("/account"));
            return response.setComplete();
        });
    }

    /** "Log out everywhere": ends every session of the user, on every node (and this one). */
    @PostMapping(value = "/account/revoke", produces = MediaType.TEXT_PLAIN_VALUE)
    public Mono<String> logOutEverywhere(Principal user) {
        return sessions.revokeAll(user.getName()).map(revoked -> "revoked=" + revoked + "\n");
    }

    @SuppressWarnings("unchecked")
    private static TreeMap<String, Integer> cartOf(WebSession session) {
        Object cart = session.getAttribute(CART);
        return cart == null ? new TreeMap<>() : (TreeMap<String, Integer>) cart;
    }
}
