package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.List;

/** Opens session stores. The only way adapters obtain one; the implementation stays package-private. */
public final class SessionStores {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());

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
        // On a thread of its own: see HBaseClientThreads.onThreadOfItsOwn.
        SessionStore store = HBaseClientThreads.onThreadOfItsOwn(() -> HBaseSessions.open(settings, webapp, clock,
                table -> table));
        if (settings.get(Setting.STATE_PROTECTION) == StateProtection.NONE) {
            LOG.log(Level.WARNING, "stateProtection=none for keyScope ''{0}'': a session is whatever table ''{1}'' holds, "
                    + "so anyone who can write that table can log in as any user and put any value in a session. Set "
                    + "stateProtection=hmac and stateKeyFile (a key file: openssl rand -base64 32 > state-keys) on every "
                    + "node; see docs/security.md", settings.get(Setting.KEY_SCOPE), settings.get(Setting.TABLE));
        }
        OpenStores.opened(store, webapp);
        return store;
    }

    /**
     * Connects for an operator's work on the tables ({@code hbase-sessions}); nothing is created or checked
     * until asked. Sessions are read and written through a store with {@code createTable=false}.
     *
     * @throws StoreUnavailableException if HBase cannot be reached within the start-up timeout
     */
    public static StoreAdministration administer(StoreSettings settings) {
        return new HBaseStoreAdministration(settings);
    }

    /** The tables a store with {@code settings} creates, with split points and shell command; asks HBase nothing. */
    public static List<TablePlan> tablePlans(StoreSettings settings) {
        return SessionTables.plans(settings);
    }

    /**
     * Connects and checks the schema within {@code operationTimeoutMillis}, whatever HBase does; never throws.
     * As {@link SessionStore#checkHealth()} on an open store.
     */
    public static StoreHealth checkHealth(StoreSettings settings) {
        return SessionTables.checkHealth(settings);
    }
}
