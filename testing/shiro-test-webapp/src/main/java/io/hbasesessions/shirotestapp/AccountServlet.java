package io.hbasesessions.shirotestapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.shiro.SecurityUtils;
import org.apache.shiro.authc.UsernamePasswordToken;
import org.apache.shiro.subject.Subject;

/**
 * {@code /login?user=NAME} logs in (password {@code demo}) and puts a cart in the session; {@code /account}
 * (behind Shiro's {@code authc}) answers with the user and the cart; {@code /revoke?user=NAME} is "log out
 * everywhere" through the DAO.
 */
public class AccountServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Subject subject = SecurityUtils.getSubject();
        switch (request.getServletPath()) {
            case "/login" -> {
                subject.login(new UsernamePasswordToken(request.getParameter("user"), "demo"));
                subject.getSession().setAttribute("cart", "book from " + request.getServerPort());
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
