package io.hbasesessions.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/**
 * One HBase connection per distinct configuration, shared by every store that uses it (a connection
 * holds threads, a ZooKeeper session and the region cache) and closed when the last of them closes.
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

    private static final class Shared {
        final AsyncConnection connection;
        int users;

        Shared(AsyncConnection connection) {
            this.connection = connection;
        }
    }

    /** One store's share of a connection. */
    static final class Lease implements AutoCloseable {
        private final Key key;
        private final AsyncConnection connection;
        private boolean closed;

        private Lease(Key key, AsyncConnection connection) {
            this.key = key;
            this.connection = connection;
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
                    release(key);
                }
            }
        }
    }

    private SharedConnections() {
    }

    /** @throws StoreUnavailableException if a new connection cannot be set up within the start-up timeout */
    static Lease acquire(StoreSettings settings, HBaseCalls calls) {
        return acquire(settings, calls, settings.startUpTimeoutMillis());
    }

    /** @throws StoreUnavailableException if a new connection cannot be set up within {@code connectBudgetMillis} */
    static synchronized Lease acquire(StoreSettings settings, HBaseCalls calls, long connectBudgetMillis) {
        Key key = Key.of(settings);
        Shared shared = OPEN.get(key);
        if (shared == null) {
            shared = new Shared(connect(settings, calls, connectBudgetMillis));
            OPEN.put(key, shared);
        }
        shared.users++;
        return new Lease(key, shared.connection);
    }

    private static void release(Key key) {
        Shared shared = OPEN.get(key);
        if (--shared.users == 0) {
            OPEN.remove(key);
            closeQuietly(shared.connection);
        }
    }

    private static AsyncConnection connect(StoreSettings settings, HBaseCalls calls, long budgetMillis) {
        // Started before the client is set up: its first use loads configuration and classes for half a second.
        Deadline deadline = Deadline.afterMillis(budgetMillis);
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        // The client's threads inherit this thread's context loader: keep a webapp's loader out of them.
        thread.setContextClassLoader(SharedConnections.class.getClassLoader());
        CompletableFuture<AsyncConnection> connecting;
        try {
            connecting = ConnectionFactory.createAsyncConnection(HBaseClientConfiguration.of(settings));
        } finally {
            thread.setContextClassLoader(caller);
        }
        try {
            return calls.await(connecting, deadline, null,
                    "connecting (" + settings.find(Setting.ZOOKEEPER_QUORUM).map(q -> "zookeeperQuorum=" + q)
                            .orElse("hbaseSite=" + settings.get(Setting.HBASE_SITE)) + ")");
        } catch (StoreUnavailableException e) {
            connecting.thenAccept(SharedConnections::closeQuietly);
            throw e;
        }
    }

    private static void closeQuietly(AsyncConnection connection) {
        try {
            connection.close();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "Closing an HBase connection failed", e);
        }
    }
}
