package io.hbasesessions.store;

import java.time.Clock;

/** Opens session stores. The only way adapters obtain one; the HBase implementation stays package-private. */
public final class SessionStores {

    private SessionStores() {
    }

    /**
     * Connects to HBase (sharing one connection among stores with the same {@code hbaseSite},
     * {@code zookeeperQuorum} and {@code operationTimeoutMillis}), creates or checks the tables and
     * returns a store for {@code settings.keyScope()}. Close it when the web application stops.
     *
     * @throws StoreConfigurationException if a table is missing (and {@code createTable=false}) or its
     *     schema differs; the message says how to fix it
     * @throws StoreUnavailableException if HBase cannot be reached within {@code operationTimeoutMillis}
     */
    public static SessionStore open(StoreSettings settings) {
        return open(settings, Clock.systemUTC());
    }

    /** As {@link #open(StoreSettings)}, with the clock that decides idle expiry (tests move it instead of sleeping). */
    public static SessionStore open(StoreSettings settings, Clock clock) {
        return HBaseSessionStore.open(settings, clock, table -> table);
    }
}
