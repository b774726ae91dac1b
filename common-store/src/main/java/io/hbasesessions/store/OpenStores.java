package io.hbasesessions.store;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stores open in this JVM, for metrics libraries: a binder watches them and gets each store that is open
 * when it starts watching, each one opened later, and each one that closes (a web application stopped or was
 * redeployed), so that it can drop that store's meters. A store opened in one web application and watched
 * from another (Tomcat's shared library, a binder in a WAR) is reported to both.
 */
public final class OpenStores {

    /** Told about stores opening and closing; called under this class's lock, so it should only register. */
    public interface Watcher {
        void opened(SessionStore store, Container container);

        void closed(SessionStore store);
    }

    /** A watch, ended by {@link #close()}. */
    public interface Watching extends AutoCloseable {
        @Override
        void close();
    }

    private static final Map<SessionStore, Container> OPEN = new IdentityHashMap<>();
    private static final List<Watcher> WATCHERS = new ArrayList<>();

    private OpenStores() {
    }

    /**
     * Tells {@code watcher} about every open store now and every store opened or closed from now on, until the
     * returned handle is closed (do close it when the watcher's own application stops: it is held statically).
     */
    public static synchronized Watching watch(Watcher watcher) {
        WATCHERS.add(watcher);
        OPEN.forEach(watcher::opened);
        return () -> {
            synchronized (OpenStores.class) {
                WATCHERS.remove(watcher);
            }
        };
    }

    static synchronized void opened(SessionStore store, Container container) {
        OPEN.put(store, container);
        WATCHERS.forEach(watcher -> watcher.opened(store, container));
    }

    static synchronized void closed(SessionStore store) {
        if (OPEN.remove(store) != null) {
            WATCHERS.forEach(watcher -> watcher.closed(store));
        }
    }
}
