package io.hbasesessions.tomcat;

import io.hbasesessions.store.FailureResponse;
import io.hbasesessions.store.SessionStoreException;
import jakarta.servlet.RequestDispatcher;
import java.io.IOException;
import java.io.PrintWriter;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * The answer to a request the store failed: the store's {@link FailureResponse} (503 when HBase is
 * unavailable, 500 when the session cannot be saved as it is), never an answer that claims success. The
 * failure is logged; its message names the session by key hash only.
 */
final class FailureAnswer {

    private static final Log log = LogFactory.getLog(FailureAnswer.class);

    private FailureAnswer() {
    }

    /** When the request ends: Tomcat's error page, with the message only (the store's exception is in the log). */
    static void sendError(Request request, Response response, SessionStoreException failure) throws IOException {
        FailureResponse answer = report(failure);
        if (response.isCommitted()) {
            log.error("The response was committed past the session store's guard; the client got the application's "
                    + "answer although its session was not saved");
            return;
        }
        response.reset();
        request.removeAttribute(RequestDispatcher.ERROR_EXCEPTION);
        response.sendError(answer.status(), answer.message());
    }

    /** Before an asynchronous request completes: written at once, as Tomcat finishes the response right after. */
    static void write(Response response, SessionStoreException failure) {
        if (response.isCommitted()) {
            return;
        }
        FailureResponse answer = report(failure);
        response.reset();
        response.setStatus(answer.status());
        response.setContentType("text/plain;charset=UTF-8");
        try {
            PrintWriter body = response.getWriter();
            body.println(answer.message());
        } catch (IOException | IllegalStateException e) {
            log.warn("The failure response of an asynchronous request could not be written: " + e);
        }
    }

    private static FailureResponse report(SessionStoreException failure) {
        FailureResponse answer = FailureResponse.to(failure);
        if (answer.isRetryable()) {
            log.warn("Answering " + answer.status() + ": " + failure.getMessage());
        } else {
            log.error("Answering " + answer.status() + ": " + failure.getMessage(), failure);
        }
        return answer;
    }
}
