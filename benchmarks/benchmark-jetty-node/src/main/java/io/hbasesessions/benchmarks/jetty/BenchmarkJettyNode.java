package io.hbasesessions.benchmarks.jetty;

import com.zaxxer.hikari.HikariDataSource;
import io.hbasesessions.benchmarks.node.NodeConsole;
import io.hbasesessions.jetty.HBaseSessionDataStore;
import io.hbasesessions.testing.NodeOptions;
import io.hbasesessions.testing.jetty.JettyNode;
import java.util.Map;
import java.util.concurrent.Callable;
import org.eclipse.jetty.session.DatabaseAdaptor;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.DefaultSessionCacheFactory;
import org.eclipse.jetty.session.JDBCSessionDataStoreFactory;
import org.eclipse.jetty.session.SessionCache;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Jetty node program (testing/jetty-node) as the benchmarks run it: with Jetty's
 * JDBCSessionDataStore on a HikariCP pool as a further choice, behind Jetty's cache for non-sticky
 * deployments or the one for sticky ones, and controlled by the driver through {@link NodeConsole}.
 */
@Command(name = "benchmark-jetty-node", mixinStandardHelpOptions = true,
        description = "The Jetty node, with Jetty's JDBC store as a further choice, controlled by the benchmark driver.")
public final class BenchmarkJettyNode implements Callable<Integer> {

    /** Connections of the JDBC pool: one per load-generator connection. */
    private static final int JDBC_POOL_SIZE = 16;

    @Mixin
    private NodeOptions options;

    @Option(names = "--jdbc-url", paramLabel = "URL",
            description = "jdbc:postgresql://... with user and password as URL parameters: Jetty's JDBCSessionDataStore "
                    + "on a HikariCP pool instead of the store --sessions names.")
    private String jdbcUrl;

    /**
     * 60, like the HBase store's default touchIntervalSeconds, writes an unchanged session again only
     * after a minute; Jetty's own default, 0, writes it on every request.
     */
    @Option(names = "--jdbc-save-period-sec", paramLabel = "SECONDS", defaultValue = "60",
            description = "The JDBC store's savePeriodSec: how long an unchanged session goes unwritten. "
                    + "Default: ${DEFAULT-VALUE}")
    private int jdbcSavePeriodSeconds;

    @Option(names = "--jdbc-session-cache", paramLabel = "POLICY", defaultValue = "EVICT_ON_SESSION_EXIT",
            description = "The eviction policy of the DefaultSessionCache in front of the JDBC store: "
                    + "EVICT_ON_SESSION_EXIT (Jetty's advice without sticky load balancing: every request reads its "
                    + "session from the database) or NEVER_EVICT (with sticky load balancing: a node keeps its sessions "
                    + "and reads the database only for one it does not hold). Default: ${DEFAULT-VALUE}")
    private JdbcSessionCache jdbcSessionCache;

    /** Jetty's {@link SessionCache} eviction policies the benchmarks compare, by name. */
    enum JdbcSessionCache {
        EVICT_ON_SESSION_EXIT(SessionCache.EVICT_ON_SESSION_EXIT),
        NEVER_EVICT(SessionCache.NEVER_EVICT);

        private final int evictionPolicy;

        JdbcSessionCache(int evictionPolicy) {
            this.evictionPolicy = evictionPolicy;
        }
    }

    public static void main(String[] args) {
        System.exit(NodeOptions.execute(new BenchmarkJettyNode(), args));
    }

    @Override
    public Integer call() throws Exception {
        HikariDataSource pool = jdbcUrl == null ? null : pool();
        JettyNode node = pool == null ? JettyNode.start(options, JettyNode.storeFactory(options))
                : JettyNode.start(options, jdbcSessionCache(), jdbcStore(pool));
        NodeOptions.announceReady(node.port(), node.serverInfo());
        NodeConsole.serve(() -> counters(node), () -> stop(node, pool));
        return 0;
    }

    private HikariDataSource pool() {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(jdbcUrl);
        pool.setMaximumPoolSize(JDBC_POOL_SIZE);
        return pool;
    }

    /**
     * Either policy writes a changed session before the response is committed, as the HBase store does (Jetty's
     * default would write it after).
     */
    private DefaultSessionCacheFactory jdbcSessionCache() {
        DefaultSessionCacheFactory cache = new DefaultSessionCacheFactory();
        cache.setEvictionPolicy(jdbcSessionCache.evictionPolicy);
        cache.setFlushOnResponseCommit(true);
        return cache;
    }

    private JDBCSessionDataStoreFactory jdbcStore(HikariDataSource pool) {
        DatabaseAdaptor adaptor = new DatabaseAdaptor();
        adaptor.setDatasource(pool);
        JDBCSessionDataStoreFactory factory = new JDBCSessionDataStoreFactory();
        factory.setDatabaseAdaptor(adaptor);
        factory.setSavePeriodSec(jdbcSavePeriodSeconds);
        return factory;
    }

    /** The HBase store's cache keeps no session in memory; the others' (Jetty's default cache) do. */
    private static Map<String, Long> counters(JettyNode node) {
        SessionCache cache = node.webapp().getSessionHandler().getSessionCache();
        long sessionsInMemory = cache instanceof DefaultSessionCache cached ? cached.getSessionsCurrent() : 0;
        return NodeConsole.counters(sessionsInMemory,
                cache.getSessionDataStore() instanceof HBaseSessionDataStore hbase ? hbase.getCounters() : null);
    }

    private static void stop(JettyNode node, HikariDataSource pool) {
        try {
            node.stop();
        } catch (Exception e) {
            throw new IllegalStateException("Jetty did not stop", e);
        } finally {
            if (pool != null) {
                pool.close();
            }
        }
    }
}
