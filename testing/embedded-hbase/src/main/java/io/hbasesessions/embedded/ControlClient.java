package io.hbasesessions.embedded;

import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * The launcher's own HBase client, for the readiness check, the shutdown request and a cluster's
 * questions about its region servers. Each call gives up within seconds instead of retrying for
 * minutes, so the launcher's deadlines decide.
 */
final class ControlClient {

    static final TableName PROBE_TABLE = TableName.valueOf("embedded_hbase_probe");
    private static final byte[] FAMILY = Bytes.toBytes("p");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");
    private static final byte[] ROW = Bytes.toBytes("ready");

    private static final Map<String, String> FAIL_FAST = Map.of(
            "hbase.client.retries.number", "2",
            "hbase.client.pause", "100",
            "hbase.rpc.timeout", "5000",
            "hbase.client.operation.timeout", "10000",
            "hbase.client.meta.operation.timeout", "10000",
            "hbase.client.sync.wait.timeout.msec", "20000",
            "zookeeper.recovery.retry", "1",
            "zookeeper.recovery.retry.intervalmill", "200",
            "zookeeper.session.timeout", "10000");

    private final Configuration configuration;

    ControlClient(Map<String, String> connectionProperties) {
        configuration = HBaseConfiguration.create();
        connectionProperties.forEach(configuration::set);
        FAIL_FAST.forEach(configuration::set);
    }

    /**
     * Asks the master for a namespace, which it answers only once initialized (a region server can
     * serve rows earlier, and a master asked to shut down while initializing hangs), creates the probe
     * table if absent, then writes and reads back one row.
     */
    void probeMasterAndTable() throws IOException {
        try (Connection connection = connect()) {
            try (Admin admin = connection.getAdmin()) {
                admin.getNamespaceDescriptor(NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR);
            }
            createProbeTableIfAbsent(connection);
            try (Table table = connection.getTable(PROBE_TABLE)) {
                byte[] value = Bytes.toBytes(System.nanoTime());
                table.put(new Put(ROW).addColumn(FAMILY, QUALIFIER, value));
                byte[] read = table.get(new Get(ROW)).getValue(FAMILY, QUALIFIER);
                if (!Arrays.equals(value, read)) {
                    throw new IOException("the probe row read back differs from the one written");
                }
            }
        }
    }

    /** Asks the master to stop the region servers and itself; their processes then exit. */
    void shutdownCluster() throws IOException {
        try (Connection connection = connect();
                Admin admin = connection.getAdmin()) {
            admin.shutdown();
        }
    }

    /** A connection whose calls fail fast; the caller closes it. */
    Connection connect() throws IOException {
        return ConnectionFactory.createConnection(configuration);
    }

    /** Fails until the master counts {@code expected} live region servers. */
    void requireLiveRegionServers(int expected) throws IOException {
        try (Connection connection = connect();
                Admin admin = connection.getAdmin()) {
            int live = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)).getLiveServerMetrics().size();
            if (live != expected) {
                throw new IOException(live + " of " + expected + " region servers have registered with the master");
            }
        }
    }

    private static void createProbeTableIfAbsent(Connection connection) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            if (!admin.tableExists(PROBE_TABLE)) {
                admin.createTable(TableDescriptorBuilder.newBuilder(PROBE_TABLE)
                        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                        .build());
            }
        }
    }
}
