package io.hbasesessions.tomcat;

import io.hbasesessions.store.SessionStoreException;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import java.io.IOException;
import org.apache.catalina.Manager;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ValveBase;

/**
 * Bounds a request for {@link HBaseSessionManager}: binds the request's {@link RequestSessions} to the thread
 * while the application runs (so the session lookups made meanwhile belong to it), hands it the store
 * failure the application let through, and tells it when the dispatch is over. Saving before the response
 * is committed, saving and dropping at the end, and the failure answer are the request's sessions' own.
 */
final class HBaseSessionValve extends ValveBase {

    /** The manager whose requests this valve bounds: handed on, never called. */
    private final Manager manager;

    HBaseSessionValve(Manager manager) {
        super(true);
        this.manager = manager;
    }

    @Override
    public void invoke(Request request, Response response) throws IOException, ServletException {
        RequestSessions sessions = RequestSessions.bind(request, response, manager);
        try {
            getNext().invoke(request, response);
            SessionStoreException.in((Throwable) request.getAttribute(RequestDispatcher.ERROR_EXCEPTION))
                    .ifPresent(sessions::failed);
        } catch (SessionStoreException e) {
            sessions.failed(e);
        } finally {
            try {
                sessions.dispatchEnded();
            } finally {
                RequestSessions.unbind();
            }
        }
    }
}
