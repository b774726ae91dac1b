package io.hbasesessions.tomcat;

import io.hbasesessions.store.SessionStoreException;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import java.util.function.Supplier;
import org.apache.catalina.Manager;
import org.apache.catalina.Session;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;

/**
 * One request's sessions, and their saving: each id is read from HBase at most once per request (Tomcat
 * asks the manager from several places, and the manager answers from here), every copy is saved before the
 * response can be committed, by any path, and once more when the request ends if it changed, then dropped.
 * A store failure is recorded, and the request is answered with it ({@link FailureAnswer}) instead of
 * the application's answer. {@link HBaseSessionValve} binds it to the request's thread for each dispatch;
 * it is kept as a request note across the dispatches of an asynchronous request. Besides the load the
 * manager hands to a lookup, it calls only the sessions it holds, which call their store.
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

    /**
     * A lookup made on this thread before any request was bound: its manager, the very id string, what it found, and
     * whether that session's id must get this node's route ({@link #routeMoved}) once the request is known.
     */
    private record EarlyLookup(Manager manager, String id, HBaseSession found, boolean routeMoved) {
    }

    /** Whose sessions these are: compared with, never called (hence Tomcat's interface). */
    private final Manager manager;
    private final Request request;
    private final Response response;
    /** Lookup results by the id asked for; a null value records that nothing was found. */
    private final Map<String, HBaseSession> byRequestedId = new HashMap<>();
    private final List<HBaseSession> copies = new ArrayList<>();
    private boolean degraded;
    private SessionStoreException failure;
    private long savedGeneration = -1;
    private boolean endsWithAsyncRequest;

    private RequestSessions(Manager manager, Request request, Response response) {
        this.manager = manager;
        this.request = request;
        this.response = response;
    }

    /**
     * The request's sessions, bound to this thread until {@link #unbind()}; adopts this request's early lookups.
     * The first time, the application is given the guarded request and response.
     */
    static RequestSessions bind(Request request, Response response, Manager manager) {
        RequestSessions sessions = (RequestSessions) request.getNote(NOTE);
        if (sessions == null) {
            sessions = new RequestSessions(manager, request, response);
            request.setNote(NOTE, sessions);
        }
        sessions.guard();
        CURRENT.set(sessions);
        String requestedId = request.getRequestedSessionId();
        List<EarlyLookup> early = EARLY.get();
        for (EarlyLookup lookup : early) {
            if (lookup.manager() == manager && lookup.id() == requestedId) {
                sessions.lookupResult(lookup.id(), lookup.found());
                if (lookup.routeMoved()) {
                    sessions.routeMoved(lookup.id(), lookup.found());
                }
            } else if (lookup.found() != null) {
                lookup.found().drop();
            }
        }
        early.clear();
        return sessions;
    }

    /** Once per request (an asynchronous dispatch comes through again): the application gets the guarded objects. */
    private void guard() {
        if (!(response.getResponse() instanceof CommitGuardResponse)) {
            response.setResponse(new CommitGuardResponse(response.getResponse(), this::saveBeforeCommit));
        }
        if (!(request.getRequest() instanceof AsyncGuardRequest)) {
            request.setRequest(new AsyncGuardRequest(request.getRequest(), this::saveBeforeAsyncCompletion));
        }
    }

    static void unbind() {
        CURRENT.remove();
    }

    /** The sessions of the request this thread processes for {@code manager}'s context, or null. */
    static RequestSessions current(Manager manager) {
        RequestSessions sessions = CURRENT.get();
        return sessions != null && sessions.manager == manager ? sessions : null;
    }

    /** The request these sessions belong to. */
    Request request() {
        return request;
    }

    /**
     * A lookup before any request is bound, answered once per id string (see the class comment); {@code routeMoves}
     * tells whether the session found must get this node's route, which the valve gives it when it adopts the lookup.
     */
    static HBaseSession earlyLookup(Manager manager, String id, Supplier<HBaseSession> load,
            BiPredicate<String, HBaseSession> routeMoves) {
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
                oldest.found().drop();
            }
        }
        early.add(new EarlyLookup(manager, id, found, routeMoves.test(id, found)));
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

    /**
     * The session the request asked for under another node's route (or none) is at home here now
     * ({@code stickySessions}): the client gets its id with this node's route, as Tomcat's
     * {@code JvmRouteBinderValve} gives it, so the balancer sends the next requests here.
     */
    synchronized void routeMoved(String requestedId, HBaseSession session) {
        if (requestedId.equals(request.getRequestedSessionId())) {
            request.changeSessionId(session.getIdInternal());
            byRequestedId.put(session.getIdInternal(), session);
        }
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

    private synchronized SessionStoreException failure() {
        return failure;
    }

    /**
     * Before the response can be committed: saves, unless nothing changed since the last save (set or removed
     * attributes, logins, timeouts, sessions created or invalidated). False when the store failed: the response
     * must then be the failure.
     */
    boolean saveBeforeCommit() {
        if (changedSinceLastSave()) {
            save();
        }
        return failure() == null;
    }

    /** Saves every session the request holds, now; a failure is recorded and stops the saves. */
    void save() {
        if (failure() != null) {
            return;
        }
        try {
            for (HBaseSession copy : sessionsToSave()) {
                if (copy.isValid()) {
                    copy.save();
                }
            }
        } catch (SessionStoreException e) {
            failed(e);
        }
        saved();
    }

    /**
     * After each dispatch of the request: a request that is not asynchronous ends now (saved, answered with the
     * store's failure if there was one, its copies dropped); an asynchronous one when it completes.
     */
    void dispatchEnded() throws IOException {
        if (request.isAsync()) {
            endWhenAsyncCompletes();
            return;
        }
        try {
            save();
            SessionStoreException failed = failure();
            if (failed != null) {
                FailureAnswer.sendError(request, response, failed);
            }
        } finally {
            // A client gone while its failure is answered must not keep the request's copies or leases.
            end();
        }
    }

    /** An asynchronous request ends when it completes, possibly on another thread, after this dispatch. */
    private void endWhenAsyncCompletes() {
        if (!markEndsWithAsyncRequest()) {
            return;
        }
        request.getAsyncContextInternal().addListener(new AsyncListener() {
            @Override
            public void onComplete(AsyncEvent event) {
                end();
            }

            @Override
            public void onTimeout(AsyncEvent event) {
                saveBeforeAsyncCompletion();
            }

            @Override
            public void onError(AsyncEvent event) {
                saveBeforeAsyncCompletion();
            }

            @Override
            public void onStartAsync(AsyncEvent event) {
                // Still the same request.
            }
        });
    }

    /** Before an asynchronous request completes (or times out, or fails): save, and answer with the failure if that fails. */
    private void saveBeforeAsyncCompletion() {
        saveBeforeCommit();
        SessionStoreException failed = failure();
        if (failed != null) {
            FailureAnswer.write(response, failed);
        }
    }

    /** Every copy the request holds, and the session Tomcat's request holds for the application. */
    private synchronized List<HBaseSession> sessionsToSave() {
        List<HBaseSession> sessions = new ArrayList<>(copies);
        if (heldBy(request) instanceof HBaseSession held && held.getManager() == manager && !sessions.contains(held)) {
            sessions.add(held);
        }
        return sessions;
    }

    /** Whether the sessions changed since the last save before a commit. The first time, always. */
    private synchronized boolean changedSinceLastSave() {
        return failure == null && generation() != savedGeneration;
    }

    private synchronized void saved() {
        savedGeneration = generation();
    }

    private long generation() {
        long generation = copies.size();
        for (HBaseSession copy : copies) {
            generation += copy.changes();
        }
        return generation;
    }

    /** True the first time only: one listener per asynchronous request. */
    private synchronized boolean markEndsWithAsyncRequest() {
        boolean first = !endsWithAsyncRequest;
        endsWithAsyncRequest = true;
        return first;
    }

    /** The request is over: its copies are passivated and dropped, their pessimistic leases given back. */
    private void end() {
        for (HBaseSession copy : takeCopies()) {
            copy.passivateDecoded();
            copy.drop();
        }
    }

    private synchronized List<HBaseSession> takeCopies() {
        List<HBaseSession> taken = List.copyOf(copies);
        copies.clear();
        byRequestedId.clear();
        return taken;
    }
}
