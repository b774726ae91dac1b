package io.hbasesessions.benchmarks.tomcat;

import com.zaxxer.hikari.HikariJNDIFactory;
import io.hbasesessions.benchmarks.node.NodeConsole;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.NodeOptions;
import io.hbasesessions.testing.tomcat.TomcatNode;
import io.hbasesessions.tomcat.HBaseSessionManager;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import javax.sql.DataSource;
import org.apache.catalina.Context;
import org.apache.catalina.Manager;
import org.apache.catalina.session.DataSourceStore;
import org.apache.catalina.session.PersistentManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.valves.PersistentValve;
import org.apache.tomcat.util.descriptor.web.ContextResource;
import org.redisson.tomcat.RedissonSessionManager;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Tomcat node program (testing/tomcat-node) as the benchmarks run it: with Redisson's session
 * manager (in its default read mode or in the one for sticky load balancing), Tomcat's PersistentManager on a
 * JDBC store, and Spring Session's filter on HBase, PostgreSQL or Redis ({@link SpringSessionFilter}) as further
 * choices, and controlled by the driver through {@link NodeConsole}.
 * <p>
 * {@code --jdbc-url} sets up what this context.xml would, Tomcat's documented setup for non-sticky
 * load balancing (the table is benchmarks/run.sh's):
 * <pre>{@code
 * <Context>
 *   <Resource name="jdbc/sessions" auth="Container" type="javax.sql.DataSource"
 *             factory="com.zaxxer.hikari.HikariJNDIFactory" maximumPoolSize="16"
 *             jdbcUrl="jdbc:postgresql://127.0.0.1:5432/hbase_sessions_bench?user=...&amp;password=..."/>
 *   <Manager className="org.apache.catalina.session.PersistentManager"
 *            sessionActivityCheck="true" maxIdleBackup="0" maxIdleSwap="0">
 *     <Store className="org.apache.catalina.session.DataSourceStore"
 *            dataSourceName="jdbc/sessions" localDataSource="true" sessionTable="tomcat_sessions"
 *            sessionIdCol="session_id" sessionValidCol="valid_session" sessionMaxInactiveCol="max_inactive"
 *            sessionLastAccessedCol="last_access" sessionAppCol="app_name" sessionDataCol="session_data"/>
 *   </Manager>
 *   <Valve className="org.apache.catalina.valves.PersistentValve"/>
 * </Context>
 * }</pre>
 */
@Command(name = "benchmark-tomcat-node", mixinStandardHelpOptions = true,
        description = "The Tomcat node, with Redisson's sessions, Tomcat's JDBC-backed PersistentManager and Spring "
                + "Session's filter as further choices, controlled by the benchmark driver.")
public final class BenchmarkTomcatNode implements Callable<Integer> {

    /** Connections of the JDBC pools: one per load-generator connection, as for Jetty's JDBC store. */
    static final int JDBC_POOL_SIZE = 16;
    /** Where the pool is bound in the context's {@code java:comp/env}, and where DataSourceStore looks it up. */
    private static final String SESSION_DATA_SOURCE = "jdbc/sessions";

    @Mixin
    private NodeOptions options;

    @ArgGroup
    private PeerSessions peer;

    @Option(names = "--redisson-read-mode", paramLabel = "MODE", defaultValue = "REDIS",
            description = "With --redisson-config, Redisson's readMode: REDIS (its default) reads the session's "
                    + "attributes from Redis in every request; MEMORY keeps each node's sessions in its memory, updated "
                    + "from the other nodes over Redis pub/sub (broadcastSessionUpdates, on by default), Redisson's setup "
                    + "for sticky load balancing. Default: ${DEFAULT-VALUE}")
    private String redissonReadMode;

    /** At most one peer's sessions; without one, the manager {@code --sessions} names. */
    static final class PeerSessions {

        @Option(names = "--redisson-config", paramLabel = "FILE",
                description = "Redisson's YAML configuration: its session manager (default mode) instead of the one "
                        + "--sessions names.")
        private Path redissonConfig;

        @Option(names = "--jdbc-url", paramLabel = "URL",
                description = "jdbc:postgresql://... with user and password as URL parameters: Tomcat's "
                        + "PersistentManager with a DataSourceStore on a HikariCP pool bound in JNDI, and a "
                        + "PersistentValve, instead of the manager --sessions names.")
        private String jdbcUrl;

        @Option(names = "--spring-session-hbase",
                description = "Spring Session's filter in front of the WAR, on this project's "
                        + "HBaseIndexedSessionRepository with the --store-settings; the manager --sessions names stays "
                        + "in place, unused.")
        private boolean springSessionHBase;

        @Option(names = "--spring-session-jdbc-url", paramLabel = "URL",
                description = "jdbc:postgresql://... with user and password as URL parameters: Spring Session's filter "
                        + "on Spring Session JDBC's JdbcIndexedSessionRepository through a HikariCP pool (its tables "
                        + "made from the script in its jar if missing).")
        private String springSessionJdbcUrl;

        @Option(names = "--spring-session-redis", paramLabel = "HOST:PORT",
                description = "Spring Session's filter on Spring Session Data Redis's RedisIndexedSessionRepository "
                        + "(Lettuce).")
        private String springSessionRedis;

        /** The Spring Session backend these options choose, if they choose one. */
        Optional<SpringSessionBackend> springSession(NodeOptions options) {
            if (springSessionHBase) {
                return Optional.of(new HBaseSpringSessions(options.storeSettings(), options.contextPath()));
            }
            if (springSessionJdbcUrl != null) {
                return Optional.of(new JdbcSpringSessions(springSessionJdbcUrl));
            }
            return Optional.ofNullable(springSessionRedis).map(RedisSpringSessions::new);
        }
    }

    public static void main(String[] args) {
        System.exit(NodeOptions.execute(new BenchmarkTomcatNode(), args));
    }

    @Override
    public Integer call() throws Exception {
        Optional<SpringSessionBackend> springSession = peer == null ? Optional.empty() : peer.springSession(options);
        TomcatNode node;
        if (springSession.isPresent()) {
            node = TomcatNode.start(options, TomcatNode.sessionManager(options), (tomcat, context) ->
                    context.addServletContainerInitializer(new SpringSessionFilter(springSession.get()), null));
        } else if (peer == null) {
            node = TomcatNode.start(options, TomcatNode.sessionManager(options));
        } else if (peer.redissonConfig != null) {
            node = TomcatNode.start(options, redisson(peer.redissonConfig, redissonReadMode));
        } else {
            node = TomcatNode.start(options, persistentManager(), this::storeEveryRequest);
        }
        NodeOptions.announceReady(node.port(), node.serverInfo());
        NodeConsole.serve(() -> NodeConsole.counters(node.manager().getActiveSessions(),
                springSession.map(SpringSessionBackend::hbaseCounters).orElseGet(() -> hbaseCounters(node.manager()))),
                node::stop);
        return 0;
    }

    /**
     * Redisson's other settings stay at its defaults, written out here: updateMode DEFAULT writes an attribute to
     * Redis when the application sets it (AFTER_REQUEST would write them all after every request), and
     * broadcastSessionUpdates (only read with readMode MEMORY) publishes each write and invalidation to the other
     * nodes' copies; broadcastSessionEvents (session listeners on every node) stays off.
     */
    private static RedissonSessionManager redisson(Path config, String readMode) {
        RedissonSessionManager manager = new RedissonSessionManager();
        manager.setConfigPath(config.toString());
        manager.setReadMode(readMode);
        manager.setUpdateMode("DEFAULT");
        manager.setBroadcastSessionUpdates(true);
        manager.setBroadcastSessionEvents(false);
        return manager;
    }

    /**
     * The valve stores each session at the end of its request and drops it from memory; maxIdleBackup and
     * maxIdleSwap 0 have the background check store and drop any session it left behind, and
     * sessionActivityCheck keeps that check off sessions a request is using (Tomcat's manager docs: the
     * PersistentManager needs it).
     */
    private static PersistentManager persistentManager() {
        DataSourceStore store = new DataSourceStore();
        store.setDataSourceName(SESSION_DATA_SOURCE);
        store.setLocalDataSource(true);
        store.setSessionTable("tomcat_sessions");
        store.setSessionIdCol("session_id");
        store.setSessionValidCol("valid_session");
        store.setSessionMaxInactiveCol("max_inactive");
        store.setSessionLastAccessedCol("last_access");
        store.setSessionAppCol("app_name");
        store.setSessionDataCol("session_data");
        PersistentManager manager = new PersistentManager();
        manager.setStore(store);
        manager.setSessionActivityCheck(true);
        manager.setMaxIdleBackup(0);
        manager.setMaxIdleSwap(0);
        return manager;
    }

    /** The pool as a JNDI resource of the context, and the valve that loads and stores the session around each request. */
    private void storeEveryRequest(Tomcat tomcat, Context context) {
        tomcat.enableNaming();
        ContextResource pool = new ContextResource();
        pool.setName(SESSION_DATA_SOURCE);
        pool.setAuth("Container");
        pool.setType(DataSource.class.getName());
        pool.setProperty("factory", HikariJNDIFactory.class.getName());
        pool.setProperty("jdbcUrl", peer.jdbcUrl);
        pool.setProperty("maximumPoolSize", Integer.toString(JDBC_POOL_SIZE));
        context.getNamingResources().addResource(pool);
        context.getPipeline().addValve(new PersistentValve());
    }

    private static StoreCounters hbaseCounters(Manager manager) {
        return manager instanceof HBaseSessionManager hbase ? hbase.counters() : null;
    }
}
