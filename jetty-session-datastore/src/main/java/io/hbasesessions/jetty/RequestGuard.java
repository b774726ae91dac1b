package io.hbasesessions.jetty;

import io.hbasesessions.store.FailureResponse;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.StoreUnavailableException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.server.Context;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes a request's session save happen before its response is committed, and turns a store failure
 * into the store's {@link FailureResponse} instead of the application's answer. Jetty calls this
 * listener whenever a thread enters the web application's scope for a request, so the data store
 * knows which request it works for; the first time the request's session reaches the store (loaded,
 * created, or stored through a caching store in front of it), a stream wrapper is put around its
 * output, which saves the session when the response is about to be sent, by whatever path
 * (Content-Length reached, buffer full, flush, redirect, error page, async completion), and answers
 * with the failure if the store failed the request. A request that never reaches the store (a static
 * file, a page without a session) keeps Jetty's own output path.
 */
final class RequestGuard implements ContextHandler.ContextScopeListener {

    private static final Logger LOG = LoggerFactory.getLogger(RequestGuard.class);
    private static final String STATE_ATTRIBUTE = RequestGuard.class.getName();

    /** Saves the session of a request; failures are recorded in its {@link RequestState}. */
    interface Flush {
        void sessionOf(Request request, RequestState state);
    }

    /** What the store did to one request: whether it failed, and whether sessions it creates are transient. */
    static final class RequestState {
        private SessionStoreException failure;
        private boolean degraded;
        private boolean answered;

        synchronized void failed(SessionStoreException e) {
            if (failure == null) {
                failure = e;
            }
        }

        synchronized SessionStoreException failure() {
            return failure;
        }

        synchronized boolean hasFailed() {
            return failure != null;
        }

        /** Whether a store call of this request already found HBase unreachable. */
        synchronized boolean foundStoreUnavailable() {
            return degraded || failure instanceof StoreUnavailableException;
        }

        synchronized void degrade() {
            degraded = true;
        }

        synchronized boolean isDegraded() {
            return degraded;
        }
    }

    private final ThreadLocal<Deque<Request>> requests = ThreadLocal.withInitial(ArrayDeque::new);
    private final Flush flush;

    RequestGuard(Flush flush) {
        this.flush = flush;
    }

    @Override
    public void enterScope(Context context, Request request) {
        if (request != null) {
            requests.get().push(request);
        }
    }

    @Override
    public void exitScope(Context context, Request request) {
        if (request != null && !requests.get().isEmpty()) {
            requests.get().pop();
        }
    }

    /** The request this thread serves; empty outside a request. */
    Optional<Request> currentRequest() {
        return Optional.ofNullable(requests.get().peek());
    }

    /** The state of the request this thread serves, its output guarded from now on; empty outside a request. */
    Optional<RequestState> current() {
        return currentRequest().map(this::stateOf);
    }

    private RequestState stateOf(Request request) {
        synchronized (request) {
            RequestState state = (RequestState) request.getAttribute(STATE_ATTRIBUTE);
            if (state == null) {
                RequestState created = new RequestState();
                request.setAttribute(STATE_ATTRIBUTE, created);
                request.addHttpStreamWrapper(stream -> new FlushingStream(stream, request, created));
                state = created;
            }
            return state;
        }
    }

    private final class FlushingStream extends HttpStream.Wrapper {
        private final Request request;
        private final RequestState state;

        FlushingStream(HttpStream wrapped, Request request, RequestState state) {
            super(wrapped);
            this.request = request;
            this.state = state;
        }

        @Override
        public void send(MetaData.Request metaRequest, MetaData.Response metaResponse, boolean last, ByteBuffer content,
                Callback callback) {
            if (state.answered) {
                // The failure response went out: the application's output goes nowhere.
                callback.succeeded();
                return;
            }
            if (metaResponse != null) {
                flush.sessionOf(request, state);
                SessionStoreException failure = state.failure();
                if (failure != null) {
                    state.answered = true;
                    sendFailure(metaRequest, metaResponse, failure, callback);
                    return;
                }
            }
            super.send(metaRequest, metaResponse, last, content, callback);
        }

        private void sendFailure(MetaData.Request metaRequest, MetaData.Response metaResponse,
                SessionStoreException failure, Callback callback) {
            FailureResponse answer = FailureResponse.to(failure);
            if (answer.isRetryable()) {
                LOG.warn("Answering {}: {}", answer.status(), failure.getMessage());
            } else {
                LOG.error("Answering {}: {}", answer.status(), failure.getMessage(), failure);
            }
            byte[] body = (answer.message() + "\n").getBytes(StandardCharsets.UTF_8);
            HttpFields fields = HttpFields.build()
                    .put(new HttpField(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8"))
                    .put(HttpHeader.CACHE_CONTROL, "no-store")
                    .put(HttpHeader.CONTENT_LENGTH, Long.toString(body.length));
            MetaData.Response failed = new MetaData.Response(answer.status(), null, metaResponse.getHttpVersion(),
                    fields, body.length);
            super.send(metaRequest, failed, true, ByteBuffer.wrap(body), callback);
        }
    }
}
