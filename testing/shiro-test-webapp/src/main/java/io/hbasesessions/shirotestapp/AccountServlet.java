package io.hbasesessions.shirotestapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import org.apache.shiro.SecurityUtils;
import org.apache.shiro.authc.UsernamePasswordToken;
import org.apache.shiro.subject.Subject;

/**
 * {@code /login?user=NAME&tag=TAG} logs in (password {@code demo}) and puts a cart and the tag in the session;
 * {@code /account} (behind Shiro's {@code authc}) answers with the user and the cart; {@code /revoke?user=NAME}
 * is "log out everywhere" through the DAO; {@code /expired} lists this node's {@code onExpiration} events.
 * The cart is a synchronized view of a hash set: a wrapper around a hash collection, as applications keep them.
 */
public class AccountServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Subject subject = SecurityUtils.getSubject();
        switch (request.getServletPath()) {
            case "/login" -> {
                subject.login(new UsernamePasswordToken(request.getParameter("user"), "demo"));
                Set<String> cart = Collections.synchronizedSet(new HashSet<>());
                cart.add("book from " + request.getServerPort());
                subject.getSession().setAttribute("cart", cart);
                if (request.getParameter("tag") != null) {
                    subject.getSession().setAttribute("tag", request.getParameter("tag"));
                }
            }
            case "/expired" -> {
                response.getWriter().print(ExpiryLog.lines());
                return;
            }
            case "/revoke" -> {
                response.getWriter().print(Revocation.revokeAll(request.getServletContext(), request.getParameter("user")));
                return;
            }
            default -> {
                // The account page: the user and the cart, read from the session.
            }
        }
        response.getWriter().print(subject.getPrincipal() + " " + subject.getSession().getAttribute("cart"));
    }
}
