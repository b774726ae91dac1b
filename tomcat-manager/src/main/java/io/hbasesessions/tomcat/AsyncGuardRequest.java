package io.hbasesessions.tomcat;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * The request the application sees: its {@link AsyncContext} saves the sessions before it completes
 * or dispatches. Tomcat finishes an asynchronous response right after {@code complete()}, before any
 * {@code AsyncListener.onComplete}, so the save must come first.
 */
final class AsyncGuardRequest extends HttpServletRequestWrapper {

    /** Saves before the asynchronous request completes; answers with the store's failure if that save fails. */
    interface CompletionHook {
        void beforeCompletion();
    }

    private final CompletionHook hook;
    private GuardedAsyncContext guarded;

    AsyncGuardRequest(HttpServletRequest request, CompletionHook hook) {
        super(request);
        this.hook = hook;
    }

    @Override
    public AsyncContext startAsync() {
        return guard(super.startAsync());
    }

    @Override
    public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
        return guard(super.startAsync(request, response));
    }

    @Override
    public AsyncContext getAsyncContext() {
        return guard(super.getAsyncContext());
    }

    private synchronized AsyncContext guard(AsyncContext context) {
        if (context == null) {
            return null;
        }
        if (guarded == null || guarded.context != context) {
            guarded = new GuardedAsyncContext(context, hook);
        }
        return guarded;
    }

    private static final class GuardedAsyncContext implements AsyncContext {
        private final AsyncContext context;
        private final CompletionHook hook;

        GuardedAsyncContext(AsyncContext context, CompletionHook hook) {
            this.context = context;
            this.hook = hook;
        }

        @Override
        public void complete() {
            hook.beforeCompletion();
            context.complete();
        }

        @Override
        public void dispatch() {
            hook.beforeCompletion();
            context.dispatch();
        }

        @Override
        public void dispatch(String path) {
            hook.beforeCompletion();
            context.dispatch(path);
        }

        @Override
        public void dispatch(ServletContext servletContext, String path) {
            hook.beforeCompletion();
            context.dispatch(servletContext, path);
        }

        @Override
        public ServletRequest getRequest() {
            return context.getRequest();
        }

        @Override
        public ServletResponse getResponse() {
            return context.getResponse();
        }

        @Override
        public boolean hasOriginalRequestAndResponse() {
            return context.hasOriginalRequestAndResponse();
        }

        @Override
        public void start(Runnable run) {
            context.start(run);
        }

        @Override
        public void addListener(AsyncListener listener) {
            context.addListener(listener);
        }

        @Override
        public void addListener(AsyncListener listener, ServletRequest request, ServletResponse response) {
            context.addListener(listener, request, response);
        }

        @Override
        public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
            return context.createListener(type);
        }

        @Override
        public void setTimeout(long timeout) {
            context.setTimeout(timeout);
        }

        @Override
        public long getTimeout() {
            return context.getTimeout();
        }
    }
}
