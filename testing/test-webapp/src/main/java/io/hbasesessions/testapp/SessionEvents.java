package io.hbasesessions.testapp;

import jakarta.servlet.annotation.WebListener;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the session events this node's container fires, for tests to read over HTTP. */
@WebListener
public final class SessionEvents implements HttpSessionListener, HttpSessionAttributeListener {

    private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

    static void count(String event) {
        COUNTS.computeIfAbsent(event, name -> new AtomicLong()).incrementAndGet();
    }

    static Map<String, Long> snapshot() {
        Map<String, Long> counts = new TreeMap<>();
        for (String event : new String[] {"created", "destroyed", "attributeAdded", "attributeReplaced",
                "attributeRemoved", "passivated", "activated", "bound", "unbound"}) {
            counts.put(event, COUNTS.getOrDefault(event, new AtomicLong()).get());
        }
        return counts;
    }

    @Override
    public void sessionCreated(HttpSessionEvent event) {
        count("created");
    }

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        count("destroyed");
        SessionEndings.destroyed(event.getSession());
    }

    @Override
    public void attributeAdded(HttpSessionBindingEvent event) {
        count("attributeAdded");
    }

    @Override
    public void attributeRemoved(HttpSessionBindingEvent event) {
        count("attributeRemoved");
    }

    @Override
    public void attributeReplaced(HttpSessionBindingEvent event) {
        count("attributeReplaced");
    }
}
