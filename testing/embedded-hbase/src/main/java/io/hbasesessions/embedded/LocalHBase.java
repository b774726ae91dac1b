package io.hbasesessions.embedded;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;

/**
 * An embedded HBase on this machine, standalone ({@link EmbeddedHBase}) or a cluster
 * ({@link EmbeddedHBaseCluster}): started, stopped, and reached by clients through ZooKeeper on loopback.
 */
public interface LocalHBase extends AutoCloseable {

    /** Starts every process and returns once clients can use HBase; does nothing if it is running. */
    LocalHBase start();

    /** Stops cleanly, killing what has not stopped after the stop timeout; does nothing if it is not running. */
    void stop();

    /** Same as {@link #stop()}. */
    @Override
    default void close() {
        stop();
    }

    boolean isRunning();

    /** The pids of the launched processes; empty before the first start (a cluster also after stop). */
    List<Long> pids();

    /** Tables, ZooKeeper state, configuration and logs; kept between runs. */
    Path dataDirectory();

    /** The log to read first when something fails: the standalone server's, or a cluster master's. */
    Path logFile();

    /** Always {@code 127.0.0.1}: every process of the launcher binds loopback. */
    default String zookeeperQuorum() {
        return ServerCommandLine.LOOPBACK;
    }

    /** The ZooKeeper client port; 0 if a free port is to be picked and HBase has not started yet. */
    int zookeeperPort();

    /** The connection settings a client needs, and nothing else. */
    default Map<String, String> clientProperties() {
        int port = zookeeperPort();
        if (port == 0) {
            throw new EmbeddedHBaseException("The ZooKeeper port is picked at the first start: call start() first");
        }
        return Map.of(
                "hbase.zookeeper.quorum", zookeeperQuorum(),
                "hbase.zookeeper.property.clientPort", Integer.toString(port));
    }

    /** A new {@code HBaseConfiguration.create()} with {@link #clientProperties()} set. */
    default Configuration clientConfiguration() {
        Configuration configuration = HBaseConfiguration.create();
        clientProperties().forEach(configuration::set);
        return configuration;
    }
}
