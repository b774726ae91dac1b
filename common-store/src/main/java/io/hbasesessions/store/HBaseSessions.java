package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;

/**
 * Opens a {@link SessionProtocol} on HBase: the shared connection, the checked tables, bounded table handles; the
 * {@link StoreFactory} wires the protocol over them.
 */
final class HBaseSessions {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());

    /** A view of each table the store uses; tests wrap them to see the mutations the store sends. */
    interface TableView extends UnaryOperator<AsyncTable<AdvancedScanResultConsumer>> {
    }

    private HBaseSessions() {
    }

    static SessionProtocol open(StoreSettings settings, Webapp webapp, Clock clock, TableView tableView) {
        if (settings.get(Setting.STICKY_SESSIONS) && webapp.route().isEmpty()) {
            throw new StoreConfigurationException("stickySessions needs a route for each node, which its session ids "
                    + "end in and the load balancer routes by: set jvmRoute on Tomcat's <Engine> (or -DjvmRoute), or "
                    + "Jetty's worker name (jetty.sessionIdManager.workerName), different on every node");
        }
        ClientLogDefaults.apply();
        LiveCounters counters = new LiveCounters();
        StateSeal seal = StateSeal.of(settings, counters);
        HBaseCalls calls = new HBaseCalls(counters);
        SharedConnections.Lease connection = SharedConnections.acquire(settings, calls, webapp.classLoader());
        try {
            new SessionTables(connection.connection(), calls, settings).prepare();
            AsyncConnection hbase = connection.connection();
            WriteDurability lifecycle = SavePlan.Durabilities.of(settings).lifecycle();
            TableName sessionsTable = TableName.valueOf(settings.get(Setting.TABLE));
            Optional<HBaseSessionRows.Coalescing> coalescing = settings.get(Setting.COALESCE_CALLS)
                    ? Optional.of(new HBaseSessionRows.Coalescing(hbase.getRegionLocator(sessionsTable), counters))
                    : Optional.empty();
            SessionRows rows = new HBaseSessionRows(tableView.apply(table(hbase, settings.get(Setting.TABLE), settings)),
                    calls, lifecycle, seal, settings.get(Setting.TIMELINE_READS), coalescing);
            UserIndex index = new HBaseUserIndex(tableView.apply(table(hbase, settings.get(Setting.INDEX_TABLE), settings)),
                    calls, lifecycle);
            if (settings.get(Setting.EXPIRY_EVENTS) && settings.find(Setting.STATE_KEY_FILE).isEmpty()) {
                LOG.log(Level.WARNING, "expiryEvents keeps the id of every session in table ''{0}'' for its listeners, "
                        + "readable by anyone who can read that table; with a stateKeyFile (stateProtection=hmac or "
                        + "encrypt) they are encrypted", settings.get(Setting.EXPIRY_TABLE));
            }
            Optional<ExpiryIndex> expiryIndex = settings.get(Setting.EXPIRY_EVENTS)
                    ? Optional.of(new HBaseExpiryIndex(tableView.apply(table(hbase, settings.get(Setting.EXPIRY_TABLE),
                            settings)), calls, settings.get(Setting.KEY_SCOPE)))
                    : Optional.empty();
            ChangeFeed changes = new HBaseChangeFeed(tableView.apply(table(hbase, settings.get(Setting.CHANGES_TABLE),
                    settings)), calls, lifecycle, ChangeFeed.retentionMillis(settings), settings.get(Setting.KEY_SCOPE));
            // Its own counters: a failed health check is no failed request.
            HBaseCalls healthCalls = new HBaseCalls(new LiveCounters());
            return StoreFactory.protocol(settings, webapp, clock, counters, seal, rows, index, expiryIndex, changes,
                    () -> SessionTables.checkHealth(hbase, healthCalls, settings), connection::close);
        } catch (RuntimeException e) {
            connection.close();
            throw e;
        }
    }

    private static AsyncTable<AdvancedScanResultConsumer> table(AsyncConnection hbase, String name,
            StoreSettings settings) {
        long timeoutMillis = settings.get(Setting.OPERATION_TIMEOUT_MILLIS);
        return hbase.getTableBuilder(TableName.valueOf(name))
                .setOperationTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .setRpcTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .setScanTimeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .build();
    }
}
