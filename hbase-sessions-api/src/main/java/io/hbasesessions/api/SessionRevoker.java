package io.hbasesessions.api;

/**
 * "Log out everywhere": deletes every session of a user, on every node, in every web application that
 * stores its sessions in the same HBase table, on Tomcat and Jetty alike. A request of a revoked
 * session afterwards finds no session.
 *
 * <p>Each web application's session store publishes one as the {@code ServletContext} attribute
 * {@link #CONTEXT_ATTRIBUTE}:
 * <pre>{@code
 * SessionRevoker revoker = (SessionRevoker) getServletContext().getAttribute(SessionRevoker.CONTEXT_ATTRIBUTE);
 * int revoked = revoker.revokeAll(request.getUserPrincipal().getName());
 * }</pre>
 * Depend on this jar with scope {@code provided}: the container's copy must be the one the web
 * application sees.
 */
@FunctionalInterface
public interface SessionRevoker {

    /** The {@code ServletContext} attribute under which the store publishes its revoker. */
    String CONTEXT_ATTRIBUTE = "io.hbasesessions.api.SessionRevoker";

    /**
     * Deletes every live session of {@code user}: the sessions of a container login of that name, or,
     * where the store is configured with {@code principalAttribute}, of that application user.
     *
     * @return how many sessions were deleted
     * @throws RuntimeException when the store cannot be reached; nothing is half-done that a retry would not finish
     */
    int revokeAll(String user);
}
