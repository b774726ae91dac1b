package io.hbasesessions.benchmarks.jetty;

import com.zaxxer.hikari.HikariDataSource;
import io.hbasesessions.benchmarks.node.NodeArguments;
import io.hbasesessions.benchmarks.node.NodeConsole;
import io.hbasesessions.jetty.HBaseSessionDataStore;
import io.hbasesessions.jetty.HBaseSessionDataStoreFactory;
import io.hbasesessions.store.StoreCounters;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.session.DatabaseAdaptor;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.DefaultSessionCacheFactory;
import org.eclipse.jetty.session.JDBCSessionDataStoreFactory;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.session.SessionDataStore;

/**
 * An embedded Jetty 12.1 (ee10) on 127.0.0.1 serving the benchmark WAR at {@code /app} with the session
 * store named by {@code store=}: {@code memory} (Jetty's default: sessions cached in memory, no store,
 * the ceiling), {@code hbase} (this project) or {@code jdbc} (Jetty's JDBCSessionDataStore on a HikariCP
 * pool). Both stores run behind a cache that drops the session when its last request ends, as any
 * non-sticky deployment must. Controlled through {@link NodeConsole}.
 */
public final class JettyNode {

    /** Connections of the JDBC pool: one per load-generator connection. */
    private static final int JDBC_POOL_SIZE = 16;
    /**
     * Jetty writes an unchanged session again only after this long, like the HBase store's default
     * touchIntervalSeconds; Jetty's own default (0) would write on every request.
     */
    private static final int JDBC_SAVE_PERIOD_SECONDS = 60;

    private JettyNode() {
    }

    public static void main(String[] args) throws Exception {
        NodeArguments arguments = NodeArguments.parse(args);
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        HikariDataSource pool = configureStore(server, arguments);

        WebAppContext webapp = new WebAppContext();
        webapp.setContextPath("/app");
        webapp.setWar(arguments.require(NodeArguments.WAR));
        server.setHandler(webapp);
        server.start();

        NodeConsole.serve(connector.getLocalPort(), () -> counters(webapp), () -> stop(server, pool));
    }

    /** Returns the JDBC pool to close at the end, or null. */
    private static HikariDataSource configureStore(Server server, NodeArguments arguments) {
        String store = arguments.require(NodeArguments.STORE);
        switch (store) {
            case "memory" -> {
                return null;
            }
            case "hbase" -> {
                server.addBean(nonStickyCache());
                HBaseSessionDataStoreFactory factory = new HBaseSessionDataStoreFactory();
                factory.setZookeeperQuorum(arguments.require(NodeArguments.ZOOKEEPER_QUORUM));
                factory.setTable(arguments.require(NodeArguments.TABLE));
                factory.setIndexTable(arguments.require(NodeArguments.INDEX_TABLE));
                server.addBean(factory);
                return null;
            }
            case "jdbc" -> {
                server.addBean(nonStickyCache());
                HikariDataSource pool = new HikariDataSource();
                pool.setJdbcUrl(arguments.require(NodeArguments.JDBC_URL));
                pool.setMaximumPoolSize(JDBC_POOL_SIZE);
                DatabaseAdaptor adaptor = new DatabaseAdaptor();
                adaptor.setDatasource(pool);
                JDBCSessionDataStoreFactory factory = new JDBCSessionDataStoreFactory();
                factory.setDatabaseAdaptor(adaptor);
                factory.setSavePeriodSec(JDBC_SAVE_PERIOD_SECONDS);
                server.addBean(factory);
                return pool;
            }
            default -> throw new IllegalArgumentException("store=" + store + ": expected memory, hbase or jdbc");
        }
    }

    private static DefaultSessionCacheFactory nonStickyCache() {
        DefaultSessionCacheFactory cache = new DefaultSessionCacheFactory();
        cache.setEvictionPolicy(SessionCache.EVICT_ON_SESSION_EXIT);
        cache.setFlushOnResponseCommit(true);
        return cache;
    }

    private static Map<String, Long> counters(WebAppContext webapp) {
        Map<String, Long> counters = new LinkedHashMap<>();
        SessionCache cache = webapp.getSessionHandler().getSessionCache();
        if (cache instanceof DefaultSessionCache defaultCache) {
            counters.put("activeSessions", defaultCache.getSessionsCurrent());
        }
        SessionDataStore store = cache.getSessionDataStore();
        if (store instanceof HBaseSessionDataStore hbase) {
            StoreCounters storeCounters = hbase.getCounters();
            counters.put("sessionWrites", storeCounters.sessionWrites());
            counters.put("loads", storeCounters.loads());
            counters.put("conflicts", storeCounters.conflicts());
        }
        return counters;
    }

    private static void stop(Server server, HikariDataSource pool) {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty did not stop", e);
        } finally {
            if (pool != null) {
                pool.close();
            }
        }
    }
}
