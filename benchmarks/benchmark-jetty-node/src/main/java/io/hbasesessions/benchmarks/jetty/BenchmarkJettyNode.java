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
import org.eclipse.jetty.session.JDBCSessionDataStoreFactory;
import org.eclipse.jetty.session.SessionCache;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Jetty node program (testing/jetty-node) as the benchmarks run it: with Jetty's
 * JDBCSessionDataStore on a HikariCP pool as a further choice (behind the same non-sticky cache as the
 * HBase store), and controlled by the driver through {@link NodeConsole}.
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

    public static void main(String[] args) {
        System.exit(NodeOptions.execute(new BenchmarkJettyNode(), args));
    }

    @Override
    public Integer call() throws Exception {
        HikariDataSource pool = jdbcUrl == null ? null : pool();
        JettyNode node = JettyNode.start(options, pool == null ? JettyNode.storeFactory(options) : jdbcStore(pool));
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
