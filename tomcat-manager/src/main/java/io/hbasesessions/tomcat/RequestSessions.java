package io.hbasesessions.tomcat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.catalina.connector.Request;

/**
 * The sessions one request has looked up or created, so each id is read from HBase at most once per
 * request (Tomcat asks the manager from several places) and every copy is dropped when it ends.
 * The valve binds it to the request's thread for each dispatch; it is kept as a request note across
 * the dispatches of an asynchronous request.
 */
final class RequestSessions {

    private static final String NOTE = RequestSessions.class.getName();
    private static final ThreadLocal<RequestSessions> CURRENT = new ThreadLocal<>();

    private final HBaseSessionManager manager;
    /** Lookup results by the id asked for; a null value records that nothing was found. */
    private final Map<String, HBaseSession> byRequestedId = new HashMap<>();
    private final List<HBaseSession> copies = new ArrayList<>();
    private boolean storeUnavailable;
    private boolean endsWithAsyncRequest;

    private RequestSessions(HBaseSessionManager manager) {
        this.manager = manager;
    }

    /** The request's sessions, bound to this thread until {@link #unbind()}. */
    static RequestSessions bind(Request request, HBaseSessionManager manager) {
        RequestSessions sessions = (RequestSessions) request.getNote(NOTE);
        if (sessions == null) {
            sessions = new RequestSessions(manager);
            request.setNote(NOTE, sessions);
        }
        CURRENT.set(sessions);
        return sessions;
    }

    static void unbind() {
        CURRENT.remove();
    }

    /**
     * The sessions of the request this thread is processing for {@code manager}'s context, or null:
     * outside a request, or when another context's manager is asked on this thread (cross-context
     * dispatch, Tomcat's check of a client-provided id against every context of the host).
     */
    static RequestSessions current(HBaseSessionManager manager) {
        RequestSessions sessions = CURRENT.get();
        return sessions != null && sessions.manager == manager ? sessions : null;
    }

    synchronized boolean hasLookedUp(String id) {
        return byRequestedId.containsKey(id);
    }

    /** What an earlier lookup of {@code id} found: a session, or null. */
    synchronized HBaseSession lookedUp(String id) {
        return byRequestedId.get(id);
    }

    synchronized void lookupResult(String id, HBaseSession found) {
        byRequestedId.put(id, found);
        if (found != null) {
            copies.add(found);
        }
    }

    synchronized void created(HBaseSession session) {
        copies.add(session);
    }

    /** Later lookups under the new id find the same copy (Tomcat updates the requested id after a change). */
    synchronized void idChanged(HBaseSession session, String newId) {
        if (copies.contains(session)) {
            byRequestedId.put(newId, session);
        }
    }

    /** HBase failed this request once (failMode=new_session): do not make it wait for HBase again. */
    synchronized void storeUnavailable() {
        storeUnavailable = true;
    }

    synchronized boolean isStoreUnavailable() {
        return storeUnavailable;
    }

    synchronized boolean isEmpty() {
        return byRequestedId.isEmpty() && copies.isEmpty();
    }

    /** True the first time only: the valve registers one listener per asynchronous request. */
    synchronized boolean markEndsWithAsyncRequest() {
        boolean first = !endsWithAsyncRequest;
        endsWithAsyncRequest = true;
        return first;
    }

    /** Every copy this request held; the request is over for them. */
    synchronized List<HBaseSession> takeCopies() {
        List<HBaseSession> taken = List.copyOf(copies);
        copies.clear();
        byRequestedId.clear();
        return taken;
    }
}
