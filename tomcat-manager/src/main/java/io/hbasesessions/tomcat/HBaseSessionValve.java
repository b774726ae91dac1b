package io.hbasesessions.tomcat;

import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.StoreUnavailableException;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;
import org.apache.juli.logging.Log;
import org.apache.juli.logging.LogFactory;

/**
 * Bounds a request for {@link HBaseSessionManager}: the session lookups made while it runs belong to
 * it, and when it ends (before the response is flushed, so the next request, on any node, sees the
 * changes) its session is saved and its copies dropped. A session store failure becomes a short
 * answer instead of an error page with a stack trace: 503 when HBase is unavailable, 500 when the
 * session cannot be saved as it is (too large, an attribute that cannot be serialized).
 */
final class HBaseSessionValve extends ValveBase {

    static final String UNAVAILABLE_MESSAGE =
            "The session store is unavailable at the moment. Please retry shortly.";

    private static final Log log = LogFactory.getLog(HBaseSessionValve.class);

    private final HBaseSessionManager manager;

    HBaseSessionValve(HBaseSessionManager manager) {
        super(true);
        this.manager = manager;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        RequestSessions requestSessions = RequestSessions.bind(request, manager);
        SessionStoreException failure = null;
        try {
            getNext().invoke(request, response);
            failure = storeFailureIn((Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION));
        } catch (SessionStoreException e) {
            failure = e;
        } finally {
            try {
                if (request.isAsync()) {
                    endWhenAsyncCompletes(request, requestSessions);
                } else {
                    failure = firstOf(failure, end(request, requestSessions, failure));
                }
            } finally {
                RequestSessions.unbind();
            }
        }
        if (failure != null) {
            respond(request, response, failure);
        }
    }

    private SessionStoreException end(Request request, RequestSessions requestSessions,
            SessionStoreException failure) {
        if (failure instanceof StoreUnavailableException) {
            // The request already waited for HBase once: drop its copies without waiting again.
            requestSessions.storeUnavailable();
        }
        try {
            manager.endRequest(request, requestSessions, false);
            return null;
        } catch (SessionStoreException e) {
            return e;
        }
    }

    /** An asynchronous request ends when it completes, possibly on another thread, after this dispatch. */
    private void endWhenAsyncCompletes(Request request, RequestSessions requestSessions) {
        if (!requestSessions.markEndsWithAsyncRequest()) {
            return;
        }
        request.getAsyncContext().addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                try {
                    manager.endRequest(request, requestSessions, true);
                } catch (SessionStoreException e) {
                    log.error("The session of a completed asynchronous request was not saved: " + e.getMessage(), e);
                }
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                // onComplete follows.
            }

            @Override
            public void onError(AsyncEvent event) {
                // onComplete follows.
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // Still the same request.
            }
        });
    }

    private void respond(Request request, Response response, SessionStoreException failure) throws IOException {
        boolean unavailable = failure instanceof StoreUnavailableException;
        if (unavailable) {
            log.warn("Answering 503 for [" + request.getRequestURI() + "]: " + failure.getMessage());
        } else {
            log.error("Answering 500 for [" + request.getRequestURI() + "]: " + failure.getMessage(), failure);
        }
        if (response.isCommitted()) {
            log.error("The response was already committed: the client got the application's answer, "
                    + "but the session was not saved");
            return;
        }
        response.reset();
        // The store's exception is reported in the log: the error page shows the message only.
        request.removeAttribute(RequestDispatcher.ERROR_EXCEPTION);
        response.sendError(unavailable ? HttpServletResponse.SC_SERVICE_UNAVAILABLE
                : HttpServletResponse.SC_INTERNAL_SERVER_ERROR,
                unavailable ? UNAVAILABLE_MESSAGE : "The session could not be saved: " + failure.getMessage());
    }

    private static SessionStoreException storeFailureIn(Throwable thrown) {
        for (Throwable cause = thrown; cause != null; cause = cause.getCause()) {
            if (cause instanceof SessionStoreException storeFailure) {
                return storeFailure;
            }
        }
        return null;
    }

    private static SessionStoreException firstOf(SessionStoreException first, SessionStoreException second) {
        return first != null ? first : second;
    }
}
