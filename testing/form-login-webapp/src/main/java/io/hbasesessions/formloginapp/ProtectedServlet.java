package io.hbasesessions.formloginapp;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Optional;

/**
 * The protected resource: answers, one {@code name=value} per line, with the user, the request as the
 * application sees it (after a login, the one the container restored: method, path, query, a form field, the
 * locale, the session cookie it carries) and the session's cart, which a request before the login filled.
 */
public class ProtectedServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(request, response);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        answer(request, response);
    }

    private static void answer(HttpServletRequest request, HttpServletResponse response) throws IOException {
        HttpSession session = request.getSession(false);
        response.setContentType("text/plain;charset=UTF-8");
        PrintWriter out = response.getWriter();
        out.println("user=" + request.getRemoteUser());
        out.println("authType=" + request.getAuthType());
        out.println("method=" + request.getMethod());
        out.println("path=" + request.getPathInfo());
        out.println("query=" + request.getQueryString());
        out.println("item=" + request.getParameter("item"));
        out.println("locale=" + request.getLocale().toLanguageTag());
        out.println("sessionCookie=" + sessionCookieOf(request));
        out.println("cart=" + (session == null ? null : session.getAttribute("cart")));
    }

    private static String sessionCookieOf(HttpServletRequest request) {
        String name = Optional.ofNullable(request.getServletContext().getSessionCookieConfig().getName()).orElse("JSESSIONID");
        return Optional.ofNullable(request.getCookies()).stream().flatMap(Arrays::stream)
                .filter(cookie -> cookie.getName().equals(name)).map(Cookie::getValue).findFirst().orElse(null);
    }
}
