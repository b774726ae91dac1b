package io.hbasesessions.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup;

/**
 * One HBase connection per distinct configuration, shared by every store that uses it (a connection
 * holds threads, a ZooKeeper session and the region cache) and closed, with its threads, when the last of
 * them closes. When the last connection of a library that came inside a web application's WAR closes, the
 * client's remaining threads are stopped too ({@link HBaseClientThreads}): the web application is stopping.
 */
final class SharedConnections {

    private static final System.Logger LOG = System.getLogger(SharedConnections.class.getName());
    private static final Map<Key, Shared> OPEN = new HashMap<>();

    /** What makes two configurations need different connections. */
    private record Key(Optional<Path> hbaseSite, Optional<String> zookeeperQuorum, long operationTimeoutMillis,
            long timelineReadAfterMillis) {
        static Key of(StoreSettings settings) {
            return new Key(settings.find(Setting.HBASE_SITE).map(Path::toAbsolutePath),
                    settings.find(Setting.ZOOKEEPER_QUORUM), settings.get(Setting.OPERATION_TIMEOUT_MILLIS),
                    settings.get(Setting.TIMELINE_READ_AFTER_MILLIS));
        }
    }

    private record Connected(AsyncConnection connection, EventLoopGroup networkThreads) {
    }

    private static final class Shared {
        final Connected connected;
        int users;

        Shared(Connected connected) {
            this.connected = connected;
        }
    }

    /** One store's share of a connection. */
    static final class Lease implements AutoCloseable {
        private final Key key;
        private final AsyncConnection connection;
        private final boolean insideWebapp;
        private boolean closed;

        private Lease(Key key, AsyncConnection connection, boolean insideWebapp) {
            this.key = key;
            this.connection = connection;
            this.insideWebapp = insideWebapp;
        }

        AsyncConnection connection() {
            return connection;
        }

        /** Gives the share back once; the connection closes with its last share. */
        @Override
        public void close() {
            synchronized (SharedConnections.class) {
                if (!closed) {
                    closed = true;
                    release(key, insideWebapp);
                }
            }
        }
    }

    private SharedConnections() {
    }

    /**
     * A share of the connection for a store of the web application whose classes {@code webappLoader} loads.
     *
     * @throws StoreUnavailableException if a new connection cannot be set up within the start-up timeout
     */
    static Lease acquire(StoreSettings settings, HBaseCalls calls, ClassLoader webappLoader) {
        return acquire(settings, calls, settings.startUpTimeoutMillis(), webappLoader);
    }

    /** A share for a tool, not a web application. @throws StoreUnavailableException as above */
    static Lease acquire(StoreSettings settings, HBaseCalls calls) {
        return acquire(settings, calls, settings.startUpTimeoutMillis(), null);
    }

    /** A share for a tool. @throws StoreUnavailableException if a new connection cannot be set up within {@code connectBudgetMillis} */
    static Lease acquire(StoreSettings settings, HBaseCalls calls, long connectBudgetMillis) {
        return acquire(settings, calls, connectBudgetMillis, null);
    }

    private static synchronized Lease acquire(StoreSettings settings, HBaseCalls calls, long connectBudgetMillis,
            ClassLoader webappLoader) {
        Key key = Key.of(settings);
        Shared shared = OPEN.get(key);
        if (shared == null) {
            shared = new Shared(connect(settings, calls, connectBudgetMillis));
            OPEN.put(key, shared);
        }
        shared.users++;
        return new Lease(key, shared.connected.connection(), HBaseClientThreads.insideWebapp(webappLoader));
    }

    private static void release(Key key, boolean insideWebapp) {
        Shared shared = OPEN.get(key);
        if (--shared.users == 0) {
            OPEN.remove(key);
            close(shared.connected);
            if (insideWebapp && OPEN.isEmpty()) {
                HBaseClientThreads.stopForGood();
            }
        }
    }

    private static Connected connect(StoreSettings settings, HBaseCalls calls, long budgetMillis) {
        // Started before the client is set up: its first use loads configuration and classes for half a second.
        Deadline deadline = Deadline.afterMillis(budgetMillis);
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        // The client's threads inherit this thread's context loader: keep a webapp's loader out of them.
        thread.setContextClassLoader(SharedConnections.class.getClassLoader());
        Connecting connecting;
        try {
            Configuration conf = HBaseClientConfiguration.of(settings);
            EventLoopGroup networkThreads = HBaseClientThreads.networkThreadsFor(conf);
            connecting = new Connecting(ConnectionFactory.createAsyncConnection(conf), networkThreads);
        } finally {
            thread.setContextClassLoader(caller);
        }
        try {
            return new Connected(calls.await(connecting.connection(), deadline, null,
                    "connecting (" + settings.find(Setting.ZOOKEEPER_QUORUM).map(q -> "zookeeperQuorum=" + q)
                            .orElse("hbaseSite=" + settings.get(Setting.HBASE_SITE)) + ")"), connecting.networkThreads());
        } catch (StoreUnavailableException e) {
            connecting.connection().whenComplete((connection, failure) ->
                    close(new Connected(connection, connecting.networkThreads())));
            throw e;
        }
    }

    private record Connecting(CompletableFuture<AsyncConnection> connection, EventLoopGroup networkThreads) {
    }

    private static void close(Connected connected) {
        if (connected.connection() != null) {
            closeQuietly(connected.connection());
        }
        HBaseClientThreads.stop(connected.networkThreads());
    }

    private static void closeQuietly(AsyncConnection connection) {
        try {
            connection.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Closing an HBase connection failed", e);
        }
    }
}
