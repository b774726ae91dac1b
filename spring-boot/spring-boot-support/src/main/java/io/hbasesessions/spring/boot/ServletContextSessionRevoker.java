package io.hbasesessions.spring.boot;

import io.hbasesessions.api.SessionRevoker;
import jakarta.servlet.ServletContext;
import org.springframework.web.context.ServletContextAware;

/**
 * The application's {@link SessionRevoker} as a bean: the one the session store of the embedded server
 * publishes in the {@code ServletContext}, looked up on each call, because the store opens with the
 * server, and opens again if the server restarts.
 */
final class ServletContextSessionRevoker implements SessionRevoker, ServletContextAware {

    private volatile ServletContext servletContext;

    @Override
    public void setServletContext(ServletContext servletContext) {
        this.servletContext = servletContext;
    }

    @Override
    public int revokeAll(String user) {
        ServletContext context = servletContext;
        Object revoker = context == null ? null : context.getAttribute(SessionRevoker.CONTEXT_ATTRIBUTE);
        if (!(revoker instanceof SessionRevoker published)) {
            throw new IllegalStateException("The HBase session store is not open: the embedded server has not "
                    + "started, or its sessions are not stored in HBase");
        }
        return published.revokeAll(user);
    }
}
