package io.hbasesessions.store;

import java.time.Clock;

/** Opens session stores. The only way adapters obtain one; the implementation stays package-private. */
public final class SessionStores {

    private SessionStores() {
    }

    /**
     * Connects to HBase (sharing one connection among stores with the same {@code hbaseSite},
     * {@code zookeeperQuorum} and {@code operationTimeoutMillis}), creates or checks the tables and
     * returns the store of {@code webapp} for {@code settings}' key scope. Close it when the web
     * application stops. The connection's threads never hold on to the web application's class loader.
     *
     * @throws StoreConfigurationException if a table is missing (and {@code createTable=false}) or its
     *     schema differs; the message says how to fix it
     * @throws StoreUnavailableException if HBase cannot be reached within the start-up timeout
     */
    public static SessionStore open(StoreSettings settings, Webapp webapp) {
        return open(settings, webapp, Clock.systemUTC());
    }

    /** As {@link #open(StoreSettings, Webapp)}, with the clock that decides expiry (tests move it instead of sleeping). */
    public static SessionStore open(StoreSettings settings, Webapp webapp, Clock clock) {
        SessionStore store = HBaseSessions.open(settings, webapp, clock, table -> table);
        OpenStores.opened(store, webapp.container());
        return store;
    }
}
