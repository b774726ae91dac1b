package io.hbasesessions.store;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * Session ids as the store accepts them. A container appends its node's route to the ids it issues
 * ({@code <id>.jvm1} on Tomcat, {@code <id>.node0} on Jetty); the route names the node, not the
 * session, so it is not part of the id the store hashes. Ids themselves never contain a dot.
 */
public final class SessionIds {

    /** Longer ids are not ones a container generates; refusing them keeps hostile input cheap. */
    static final int MAX_ID_CHARS = 256;
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_+/=-]{1," + MAX_ID_CHARS + "}");
    private static final Pattern ROUTE = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private SessionIds() {
    }

    /**
     * The id without a route suffix: everything before the last dot when what follows it has the shape
     * of a route, else the id as given (which, if it still contains a dot, names no session).
     */
    public static String withoutRoute(String id) {
        if (id == null) {
            return null;
        }
        int dot = id.lastIndexOf('.');
        return dot > 0 && ROUTE.matcher(id).region(dot + 1, id.length()).matches() ? id.substring(0, dot) : id;
    }

    /** Whether {@code route} can be a node's route: 1 to 64 letters, digits, {@code _} or {@code -}. */
    public static boolean isRoute(String route) {
        return route != null && ROUTE.matcher(route).matches();
    }

    /** The route suffix of {@code id} (what follows its last dot, when it has the shape of a route), or null. */
    public static String routeOf(String id) {
        String withoutRoute = withoutRoute(id);
        return withoutRoute == null || withoutRoute.length() == id.length() ? null : id.substring(withoutRoute.length() + 1);
    }

    /**
     * {@code uri} without the path parameters whose value is one of {@code ids}, with or without a route
     * ({@code ;jsessionid=ID.node0}, whatever the parameter's name): a request a container keeps for later (the
     * one its FORM login restores) may name its session in its URI, and a session id is never stored.
     */
    public static String uriWithout(String uri, Collection<String> ids) {
        if (uri == null) {
            return null;
        }
        String cleaned = uri;
        for (String id : ids.stream().map(SessionIds::withoutRoute).filter(SessionIds::isValid).distinct().toList()) {
            cleaned = Pattern.compile(";[^;/?#=]*=" + Pattern.quote(id) + "[^;/?#]*").matcher(cleaned).replaceAll("");
        }
        return cleaned;
    }

    /**
     * The SHA-256 of {@code id} without its route: what a container keeps for later in place of an id, which is a
     * bearer token (the route names a node the next request may not reach).
     */
    public static byte[] hash(String id) {
        return SessionKey.sha256(withoutRoute(id).getBytes(StandardCharsets.UTF_8));
    }

    /** Whether a session can have this id (null, empty, overlong ids and ids with other characters cannot). */
    public static boolean isValid(String id) {
        return id != null && ID.matcher(id).matches();
    }
}
