package io.hbasesessions.tomcat;

/** Tomcat session ids as the store sees them. */
final class SessionIds {

    private SessionIds() {
    }

    /**
     * The id without Tomcat's {@code .jvmRoute} suffix, which names the node that issued it, not the
     * session: every node must find the same row. Tomcat splits at the first dot too.
     */
    static String raw(String sessionId) {
        int routeStart = sessionId.indexOf('.');
        return routeStart < 0 ? sessionId : sessionId.substring(0, routeStart);
    }
}
