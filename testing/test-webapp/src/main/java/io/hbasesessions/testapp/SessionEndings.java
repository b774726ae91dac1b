package io.hbasesessions.testapp;

import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionBindingEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Which sessions this node's container destroyed and which {@link ListeningNote}s it unbound, with what
 * the listener saw at that moment: counts ({@link SessionEvents}) cannot show that every session ended
 * exactly once across nodes, that its attributes were still there, or that its values were the webapp's
 * own classes. Read with {@code /session?op=endings}: {@code destroyed.<n>.<field>} and
 * {@code unbound.<n>.<field>} lines, {@code n} counting from 0 in the order the events came.
 */
final class SessionEndings {

    /** The String attribute a test sets to recognise a session by when it is destroyed. */
    static final String TAG = "tag";
    /** The attribute holding the ListeningNote a test binds beside the tag. */
    static final String LISTENER = "listener";
    /** What a class loader field says when it is the webapp's (its servlet context's). */
    static final String WEBAPP_LOADER = "webapp";

    private static final Queue<Map<String, String>> DESTROYED = new ConcurrentLinkedQueue<>();
    private static final Queue<Map<String, String>> UNBOUND = new ConcurrentLinkedQueue<>();

    private SessionEndings() {
    }

    /** Reads the tag and the listener inside {@code sessionDestroyed}, where the session must still hold them. */
    static void destroyed(HttpSession session) {
        Map<String, String> record = started(session);
        try {
            record.put("tag", String.valueOf(session.getAttribute(TAG)));
            record.put("listenerLoader", loaderOf(session.getAttribute(LISTENER), session));
        } catch (IllegalStateException e) {
            record.put("tag", "unreadable: " + e.getMessage());
        }
        DESTROYED.add(record);
    }

    /** {@code value} is the unbound listener itself: Jetty's events carry no value ({@code getValue()} is null). */
    static void unbound(ListeningNote value, String text, HttpSessionBindingEvent event) {
        Map<String, String> record = started(event.getSession());
        record.put("text", text);
        record.put("valueLoader", loaderOf(value, event.getSession()));
        UNBOUND.add(record);
    }

    static void describe(Map<String, String> out) {
        describe("destroyed", DESTROYED, out);
        describe("unbound", UNBOUND, out);
    }

    private static void describe(String kind, Queue<Map<String, String>> records, Map<String, String> out) {
        int n = 0;
        for (Map<String, String> record : records) {
            String prefix = kind + "." + n++ + ".";
            record.forEach((field, value) -> out.put(prefix + field, value));
        }
    }

    /** The fields every record has: the id as both containers store it, when, and the listener thread's loader. */
    private static Map<String, String> started(HttpSession session) {
        Map<String, String> record = new LinkedHashMap<>();
        record.put("id", withoutRoute(session.getId()));
        record.put("atMillis", Long.toString(System.currentTimeMillis()));
        record.put("contextLoader", describeLoader(Thread.currentThread().getContextClassLoader(), session));
        return record;
    }

    /** Tomcat appends {@code .jvmRoute} to the ids it hands out; ids themselves have no dot. */
    private static String withoutRoute(String id) {
        int dot = id.indexOf('.');
        return dot < 0 ? id : id.substring(0, dot);
    }

    private static String loaderOf(Object value, HttpSession session) {
        return value == null ? "none" : describeLoader(value.getClass().getClassLoader(), session);
    }

    /** One line, unlike some loaders' {@code toString()}. */
    private static String describeLoader(ClassLoader loader, HttpSession session) {
        if (loader == session.getServletContext().getClassLoader()) {
            return WEBAPP_LOADER;
        }
        return loader == null ? "bootstrap" : loader.getClass().getName() + "@" + Integer.toHexString(System.identityHashCode(loader));
    }
}
