package io.hbasesessions.tomcat;

import io.hbasesessions.store.FailureResponse;
import io.hbasesessions.store.SessionStoreException;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.io.PrintWriter;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * Bounds a request for {@link HBaseSessionManager}: the session lookups made while it runs belong to
 * it; before its response can be committed, by any path, its sessions are saved (so the next request,
 * on any node, sees the changes); when it ends they are saved once more if they changed and dropped. A
 * store failure becomes the store's {@link FailureResponse} (503 when HBase is unavailable, 500 when
 * the session cannot be saved as it is), never an answer that claims success.
 */
final class HBaseSessionValve extends ValveBase {

    private static final Log log = LogFactory.getLog(HBaseSessionValve.class);

    private final HBaseSessionManager manager;

    HBaseSessionValve(HBaseSessionManager manager) {
        super(true);
        this.manager = manager;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        RequestSessions sessions = RequestSessions.bind(request, manager);
        guard(request, response, sessions);
        try {
            getNext().invoke(request, response);
            SessionStoreException.in((Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION))
                    .ifPresent(sessions::failed);
        } catch (SessionStoreException e) {
            sessions.failed(e);
        } finally {
            try {
                if (request.isAsync()) {
                    endWhenAsyncCompletes(request, response, sessions);
                } else {
                    manager.flush(request, sessions);
                    respondIfFailed(request, response, sessions);
                    manager.end(sessions);
                }
            } finally {
                RequestSessions.unbind();
            }
        }
    }

    /** Once per request (an asynchronous dispatch comes through again): the application gets the guarded objects. */
    private void guard(Request request, Response response, RequestSessions sessions) {
        if (!(response.getResponse() instanceof CommitGuardResponse)) {
            response.setResponse(new CommitGuardResponse(response.getResponse(),
                    () -> manager.flushBeforeCommit(request, sessions)));
        }
        if (!(request.getRequest() instanceof AsyncGuardRequest)) {
            request.setRequest(new AsyncGuardRequest(request.getRequest(), () -> completeAsync(request, response, sessions)));
        }
    }

    /** An asynchronous request ends when it completes, possibly on another thread, after this dispatch. */
    private void endWhenAsyncCompletes(Request request, Response response, RequestSessions sessions) {
        if (!sessions.markEndsWithAsyncRequest()) {
            return;
        }
        request.getAsyncContextInternal().addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                manager.end(sessions);
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                completeAsync(request, response, sessions);
            }

            @Override
            public void onError(AsyncEvent event) {
                completeAsync(request, response, sessions);
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // Still the same request.
            }
        });
    }

    /** Before an asynchronous request completes (or times out, or fails): save, and answer with the failure if that fails. */
    private void completeAsync(Request request, Response response, RequestSessions sessions) {
        manager.flushBeforeCommit(request, sessions);
        SessionStoreException failure = sessions.failure();
        if (failure == null || response.isCommitted()) {
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

    private void respondIfFailed(Request request, Response response, RequestSessions sessions) throws IOException {
        SessionStoreException failure = sessions.failure();
        if (failure == null) {
            return;
        }
        FailureResponse answer = report(failure);
        if (response.isCommitted()) {
            log.error("The response was committed past the session store's guard; the client got the application's "
                    + "answer although its session was not saved");
            return;
        }
        response.reset();
        // The store's exception is in the log: the error page shows the message only.
        request.removeAttribute(RequestDispatcher.ERROR_EXCEPTION);
        response.sendError(answer.status(), answer.message());
    }

    /** Logs the store's failure (its message names the session by key hash only) and gives the answer for it. */
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
