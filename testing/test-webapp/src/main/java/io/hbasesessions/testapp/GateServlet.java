package io.hbasesessions.testapp;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;

/**
 * {@code /gate?open=NAME} opens a {@link Gates gate}; {@code /gate?waiting=NAME} answers {@code waiting=true|false};
 * {@code /gate?release=NAME} opens the gate of a request held after its answer ({@link Gates#HOLD_AFTER_COMMIT}) and
 * answers {@code held=true} if that request had not ended yet. Never touches a session.
 */
@WebServlet("/gate")
public final class GateServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String release = request.getParameter("release");
        if (release != null) {
            Answers.write(response, Map.of("held", Boolean.toString(Gates.release(release))));
            return;
        }
        String open = request.getParameter("open");
        if (open != null) {
            Gates.open(open);
            Answers.write(response, Map.of("opened", open));
            return;
        }
        String name = String.valueOf(request.getParameter("waiting"));
        Answers.write(response, Map.of("waiting", Boolean.toString(Gates.isWaiting(name))));
    }
}
