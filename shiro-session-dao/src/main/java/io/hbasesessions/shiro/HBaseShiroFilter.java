package io.hbasesessions.shiro;

import io.hbasesessions.store.FailureResponse;
import io.hbasesessions.store.SessionStoreException;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.Optional;
import org.apache.shiro.web.servlet.ShiroFilter;

/**
 * Shiro's {@code ShiroFilter}, answering as the Tomcat and Jetty adapters do when the session store fails:
 * name it in {@code web.xml} instead of {@code org.apache.shiro.web.servlet.ShiroFilter}. Shiro reads and
 * writes its session through the DAO while it resolves the subject and while the application runs; a store
 * failure there (HBase unavailable within {@code operationTimeoutMillis} with {@code failMode=error}, a session
 * too large to save) would reach the container as a {@code ServletException}, a 500 page with a stack trace.
 * Here it becomes the store's {@link FailureResponse} (503 when HBase is unavailable, 500 when the session cannot
 * be saved as it is), with its message and no internals; the log has the cause.
 */
public class HBaseShiroFilter extends ShiroFilter {

    private static final System.Logger LOG = System.getLogger(HBaseShiroFilter.class.getName());

    @Override
    protected void doFilterInternal(ServletRequest request, ServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            super.doFilterInternal(request, response, chain);
        } catch (ServletException | RuntimeException e) {
            Optional<SessionStoreException> failure = SessionStoreException.in(e);
            if (failure.isEmpty()) {
                throw e;
            }
            answer(response, failure.get());
        }
    }

    private static void answer(ServletResponse response, SessionStoreException failure) throws IOException {
        FailureResponse answer = FailureResponse.to(failure);
        if (answer.isRetryable()) {
            LOG.log(Level.WARNING, "Answering {0}: {1}", answer.status(), failure.getMessage());
        } else {
            LOG.log(Level.ERROR, "Answering " + answer.status() + ": " + failure.getMessage(), failure);
        }
        if (response.isCommitted()) {
            LOG.log(Level.ERROR, "The response was already committed: the client got the application's answer");
            return;
        }
        response.reset();
        ((HttpServletResponse) response).setStatus(answer.status());
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().println(answer.message());
    }
}
