package io.hbasesessions.tomcat;

import io.hbasesessions.store.SessionStoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.catalina.Session;
import org.apache.catalina.connector.Request;

/**
 * The sessions one request looked up or created, so each id is read from HBase at most once per
 * request (Tomcat asks the manager from several places), every copy is saved before the response is
 * committed, and every copy is dropped when the request ends. {@link HBaseSessionValve} binds it to
 * the request's thread for each dispatch; it is kept as a request note across the dispatches of an
 * asynchronous request.
 *
 * <p>Tomcat looks sessions up before the valve runs, too: the connector checks each session cookie
 * (one request may carry many), a {@code ServletRequestListener} or an engine or host valve may ask.
 * Those lookups are remembered on their thread by the identity of the id string Tomcat passed (a new
 * string for every request), and the valve adopts the ones of its request when it binds: a request's
 * session is found once, however it was first looked up, and saved like any other.
 */
final class RequestSessions {

    private static final String NOTE = RequestSessions.class.getName();
    private static final ThreadLocal<RequestSessions> CURRENT = new ThreadLocal<>();
    private static final ThreadLocal<List<EarlyLookup>> EARLY = ThreadLocal.withInitial(ArrayList::new);
    private static final ThreadLocal<Boolean> PROBING = new ThreadLocal<>();
    /** Early lookups kept per thread: one request looks up a few ids at most; older ones are dropped. */
    private static final int MAX_EARLY_LOOKUPS = 16;

    /** A lookup made on this thread before any request was bound: its manager, the very id string, what it found. */
    private record EarlyLookup(HBaseSessionManager manager, String id, HBaseSession found) {
    }

    private final HBaseSessionManager manager;
    private final Request request;
    /** Lookup results by the id asked for; a null value records that nothing was found. */
    private final Map<String, HBaseSession> byRequestedId = new HashMap<>();
    private final List<HBaseSession> copies = new ArrayList<>();
    private boolean degraded;
    private SessionStoreException failure;
    private long flushedGeneration = -1;
    private boolean endsWithAsyncRequest;

    private RequestSessions(HBaseSessionManager manager, Request request) {
        this.manager = manager;
        this.request = request;
    }

    /** The request's sessions, bound to this thread until {@link #unbind()}; adopts this request's early lookups. */
    static RequestSessions bind(Request request, HBaseSessionManager manager) {
        RequestSessions sessions = (RequestSessions) request.getNote(NOTE);
        if (sessions == null) {
            sessions = new RequestSessions(manager, request);
            request.setNote(NOTE, sessions);
        }
        CURRENT.set(sessions);
        String requestedId = request.getRequestedSessionId();
        List<EarlyLookup> early = EARLY.get();
        for (EarlyLookup lookup : early) {
            if (lookup.manager() == manager && lookup.id() == requestedId) {
                sessions.lookupResult(lookup.id(), lookup.found());
            } else if (lookup.found() != null) {
                lookup.manager().drop(lookup.found());
            }
        }
        early.clear();
        return sessions;
    }

    static void unbind() {
        CURRENT.remove();
    }

    /** The sessions of the request this thread processes for {@code manager}'s context, or null. */
    static RequestSessions current(HBaseSessionManager manager) {
        RequestSessions sessions = CURRENT.get();
        return sessions != null && sessions.manager == manager ? sessions : null;
    }

    /** The request these sessions belong to. */
    Request request() {
        return request;
    }

    /** A lookup before any request is bound, answered once per id string (see the class comment). */
    static HBaseSession earlyLookup(HBaseSessionManager manager, String id, Supplier<HBaseSession> load) {
        List<EarlyLookup> early = EARLY.get();
        for (EarlyLookup lookup : early) {
            if (lookup.manager() == manager && lookup.id() == id) {
                return lookup.found();
            }
        }
        HBaseSession found = load.get();
        if (early.size() == MAX_EARLY_LOOKUPS) {
            EarlyLookup oldest = early.remove(0);
            if (oldest.found() != null) {
                oldest.manager().drop(oldest.found());
            }
        }
        early.add(new EarlyLookup(manager, id, found));
        return found;
    }

    /**
     * The session the request itself holds, without loading one: Tomcat's request caches the session
     * it handed to the application, and asks the manager only when it has none.
     */
    static Session heldBy(Request request) {
        PROBING.set(Boolean.TRUE);
        try {
            return request.getSessionInternal(false);
        } finally {
            PROBING.remove();
        }
    }

    /** True while {@link #heldBy} asks: the manager then answers from what was looked up, never from HBase. */
    static boolean isProbing() {
        return PROBING.get() != null;
    }

    synchronized HBaseSession lookup(String id, Supplier<HBaseSession> load) {
        if (byRequestedId.containsKey(id)) {
            HBaseSession found = byRequestedId.get(id);
            return found != null && found.isValid() ? found : null;
        }
        HBaseSession found = isProbing() ? null : load.get();
        if (!isProbing()) {
            lookupResult(id, found);
        }
        return found;
    }

    private synchronized void lookupResult(String id, HBaseSession found) {
        byRequestedId.put(id, found);
        if (found != null && !copies.contains(found)) {
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

    /** HBase failed this request's lookup and failMode=new_session: a session it creates is transient. */
    synchronized void degrade() {
        degraded = true;
    }

    synchronized boolean isDegraded() {
        return degraded;
    }

    /** Records what the store failed, the first failure wins: it decides the response. */
    synchronized void failed(SessionStoreException e) {
        if (failure == null) {
            failure = e;
        }
    }

    synchronized SessionStoreException failure() {
        return failure;
    }

    /** Every copy the request holds, and the session Tomcat's request holds for the application. */
    synchronized List<HBaseSession> sessionsToSave(Request request) {
        List<HBaseSession> sessions = new ArrayList<>(copies);
        if (heldBy(request) instanceof HBaseSession held && held.getManager() == manager && !sessions.contains(held)) {
            sessions.add(held);
        }
        return sessions;
    }

    /**
     * Whether the sessions changed since the last save before a commit: set or removed attributes,
     * logins, timeouts, sessions created or invalidated. The first time, always.
     */
    synchronized boolean changedSinceLastFlush() {
        return failure == null && generation() != flushedGeneration;
    }

    synchronized void flushed() {
        flushedGeneration = generation();
    }

    private long generation() {
        long generation = copies.size();
        for (HBaseSession copy : copies) {
            generation += copy.changes();
        }
        return generation;
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
