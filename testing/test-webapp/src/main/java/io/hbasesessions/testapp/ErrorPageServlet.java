package io.hbasesessions.testapp;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;

/**
 * The error page of {@link ConformanceFailure}: answers with what the failed request's change produced,
 * with a Content-Length, then works ({@code work}). With {@code pageWrites=V} the error page changes the
 * session too (attribute {@code errorPage}), as a page that records the error for the user would.
 */
@WebServlet("/error-page")
public final class ErrorPageServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String body = String.valueOf(request.getAttribute(StyleServlet.BODY));
        String pageWrites = request.getParameter("pageWrites");
        if (pageWrites != null) {
            HttpSession session = request.getSession(true);
            session.setAttribute("errorPage", pageWrites);
            body += "errorPage=" + pageWrites + "\n";
        }
        Answers.writeWithLength(response, body + "errorPageShown=true\n");
        Answers.workAfterAnswering(request, response.isCommitted());
    }
}
