package io.hbasesessions.testapp;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * {@code /classes?name=CLASS} answers {@code visible=true|false}: whether this web application's class loader
 * gives it that class, as code of the application that wants to reach the server's classes would try. Never
 * touches a session.
 */
@WebServlet("/classes")
public final class ClassesServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean visible;
        try {
            Class.forName(String.valueOf(request.getParameter("name")), false, getClass().getClassLoader());
            visible = true;
        } catch (ClassNotFoundException | LinkageError e) {
            visible = false;
        }
        Answers.write(response, Map.of("visible", Boolean.toString(visible)));
    }
}
