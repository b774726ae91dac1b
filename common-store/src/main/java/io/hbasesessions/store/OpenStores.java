package io.hbasesessions.store;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The stores open in this JVM, for metrics and health: a watcher is told of each store that is open when it
 * starts watching, each one opened later, and each one that closes (a web application stopped or was
 * redeployed), so that it can drop that store's meters.
 *
 * <p>A watcher sees only the stores of the web applications its own code belongs to: those whose class loader
 * is the loader of the class that called {@link #watch}, or a child of it. So a binder inside a WAR sees that
 * WAR's stores, and one on the server's class path (Tomcat's shared library, Spring Boot's application) the
 * stores of every application below it. And it sees only what metrics and health read of a store
 * ({@link ObservedStore}), never the store itself, which closes, sweeps and revokes.
 */
public final class OpenStores {

    /** Told about stores opening and closing; called under this class's lock, so it should only register. */
    public interface Watcher {
        void opened(ObservedStore store);

        void closed(ObservedStore store);
    }

    /** A watch, ended by {@link #close()}. */
    public interface Watching extends AutoCloseable {
        @Override
        void close();
    }

    /** What a watcher reads of one open store: the same object when it opens and when it closes. */
    public static final class ObservedStore {
        private final SessionStore store;
        private final Container container;
        private final ClassLoader applicationLoader;

        private ObservedStore(SessionStore store, Container container, ClassLoader applicationLoader) {
            this.store = store;
            this.container = container;
            this.applicationLoader = applicationLoader;
        }

        public String keyScope() {
            return store.keyScope();
        }

        public Container container() {
            return container;
        }

        /** As {@link SessionStore#counters()}. */
        public StoreCounters counters() {
            return store.counters();
        }

        /** As {@link SessionStore#latencies()}. */
        public StoreLatencies latencies() {
            return store.latencies();
        }

        /** As {@link SessionStore#checkHealth()}: asks HBase. */
        public StoreHealth checkHealth() {
            return store.checkHealth();
        }

        @Override
        public String toString() {
            return store.toString();
        }
    }

    /** A watcher and the class loader of the code that asked: it sees the stores of that loader and its children. */
    private record Scoped(Watcher watcher, ClassLoader scope) {
        boolean sees(ObservedStore store) {
            for (ClassLoader loader = store.applicationLoader; loader != null; loader = loader.getParent()) {
                if (loader == scope) {
                    return true;
                }
            }
            return scope == null;
        }
    }

    private static final StackWalker CALLERS = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    private static final Map<SessionStore, ObservedStore> OPEN = new IdentityHashMap<>();
    private static final List<Scoped> WATCHERS = new ArrayList<>();

    private OpenStores() {
    }

    /**
     * Tells {@code watcher} about every open store its caller's code may see now, and every such store opened or
     * closed from now on, until the returned handle is closed (do close it when the watcher's own application
     * stops: it is held statically).
     */
    public static synchronized Watching watch(Watcher watcher) {
        Scoped scoped = new Scoped(watcher, CALLERS.getCallerClass().getClassLoader());
        WATCHERS.add(scoped);
        OPEN.values().stream().filter(scoped::sees).forEach(watcher::opened);
        return () -> {
            synchronized (OpenStores.class) {
                WATCHERS.remove(scoped);
            }
        };
    }

    static synchronized void opened(SessionStore store, Webapp webapp) {
        ObservedStore observed = new ObservedStore(store, webapp.container(), webapp.classLoader());
        OPEN.put(store, observed);
        WATCHERS.stream().filter(scoped -> scoped.sees(observed)).forEach(scoped -> scoped.watcher().opened(observed));
    }

    static synchronized void closed(SessionStore store) {
        ObservedStore observed = OPEN.remove(store);
        if (observed != null) {
            WATCHERS.stream().filter(scoped -> scoped.sees(observed)).forEach(scoped -> scoped.watcher().closed(observed));
        }
    }
}
