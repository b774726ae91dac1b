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
    private static final int MAX_ROUTE_CHARS = 64;

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
        return dot > 0 && isRoute(id, dot + 1, id.length()) ? id.substring(0, dot) : id;
    }

    /** Whether {@code route} can be a node's route: 1 to 64 letters, digits, {@code _} or {@code -}. */
    public static boolean isRoute(String route) {
        return route != null && isRoute(route, 0, route.length());
    }

    // Every request checks its id a few times: a loop over the characters, not a regular expression, which
    // made a matcher each time (3% of a node's CPU on a request served from a sticky copy).
    private static boolean isRoute(String text, int from, int to) {
        if (to - from < 1 || to - from > MAX_ROUTE_CHARS) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (!isLetterOrDigit(c) && c != '_' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean isLetterOrDigit(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
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
        if (id == null || id.isEmpty() || id.length() > MAX_ID_CHARS) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!isLetterOrDigit(c) && c != '_' && c != '+' && c != '/' && c != '=' && c != '-') {
                return false;
            }
        }
        return true;
    }
}
