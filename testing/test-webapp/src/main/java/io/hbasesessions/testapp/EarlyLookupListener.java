package io.hbasesessions.testapp;

import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;

/**
 * Looks the session up before anything else does, when the request carries {@value #HEADER}: Tomcat
 * runs {@code requestInitialized} before the context's pipeline, so before the session manager's valve.
 * The request's writes must be saved all the same. What it found is the request attribute
 * {@value #FOUND} ({@code found} or {@code none}).
 */
@WebListener
public final class EarlyLookupListener implements ServletRequestListener {

    public static final String HEADER = "X-Early-Session-Lookup";
    public static final String FOUND = "earlyLookup";

    @Override
    public void requestInitialized(ServletRequestEvent event) {
        if (event.getServletRequest() instanceof HttpServletRequest request && request.getHeader(HEADER) != null
                && request.getAttribute(FOUND) == null) {
            HttpSession session = request.getSession(false);
            request.setAttribute(FOUND, session == null ? "none" : "found");
        }
    }
}
