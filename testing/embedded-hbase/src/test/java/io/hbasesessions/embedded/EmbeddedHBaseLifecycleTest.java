package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/** One server of its own, started twice on one directory: the second start must find the first's rows. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedHBaseLifecycleTest {

    private static final TableName TABLE = TableName.valueOf("smoke");
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");
    private static final byte[] ROW = Bytes.toBytes("row-1");
    private static final byte[] VALUE = Bytes.toBytes("value-1");
    private static final int FAMILY_TTL_SECONDS = 3600;

    @TempDir
    static Path dataDirectory;

    private static EmbeddedHBase hbase;

    @BeforeAll
    static void buildServer() {
        hbase = EmbeddedHBase.builder().dataDirectory(dataDirectory).build();
    }

    @AfterAll
    static void stopServer() {
        hbase.stop();
    }

    @Test
    @Order(1)
    void startsServesATableWithTtlAndStopsWithoutLeavingAProcess() throws IOException {
        Instant startCalled = Instant.now();
        hbase.start();
        Duration startTime = Duration.between(startCalled, Instant.now());
        long pid = hbase.pid();
        System.out.printf("embedded HBase ready in %d ms, server RSS %d MiB (pid %d)%n",
                startTime.toMillis(), ServerProcesses.residentKibibytes(pid) / 1024, pid);
        assertTrue(hbase.isRunning());

        try (Connection connection = ConnectionFactory.createConnection(hbase.clientConfiguration())) {
            createTableWithFamilyTtl(connection);
            try (Table table = connection.getTable(TABLE)) {
                table.put(new Put(ROW).addColumn(FAMILY, QUALIFIER, VALUE));
                assertArrayEquals(VALUE, table.get(new Get(ROW)).getValue(FAMILY, QUALIFIER));
                assertCellOlderThanTtlIsNotReturned(table);
            }
        }

        Instant stopCalled = Instant.now();
        hbase.stop();
        System.out.printf("embedded HBase stopped in %d ms%n", Duration.between(stopCalled, Instant.now()).toMillis());
        assertFalse(hbase.isRunning());
        ServerProcesses.assertNoServerLeft(pid, dataDirectory);
        hbase.stop(); // idempotent
    }

    @Test
    @Order(2)
    void restartOnTheSameDirectoryAndPortKeepsTheRows() throws IOException {
        int zookeeperPort = hbase.zookeeperPort();
        Instant startCalled = Instant.now();
        hbase.start();
        System.out.printf("embedded HBase restarted in %d ms%n", Duration.between(startCalled, Instant.now()).toMillis());
        assertEquals(zookeeperPort, hbase.zookeeperPort());
        try (Connection connection = ConnectionFactory.createConnection(hbase.clientConfiguration());
                Table table = connection.getTable(TABLE)) {
            assertArrayEquals(VALUE, table.get(new Get(ROW)).getValue(FAMILY, QUALIFIER));
        }
        long pid = hbase.pid();
        Instant stopCalled = Instant.now();
        hbase.stop();
        System.out.printf("embedded HBase stopped in %d ms%n", Duration.between(stopCalled, Instant.now()).toMillis());
        ServerProcesses.assertNoServerLeft(pid, dataDirectory);
    }

    private static void createTableWithFamilyTtl(Connection connection) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setTimeToLive(FAMILY_TTL_SECONDS).build())
                    .build());
            assertEquals(FAMILY_TTL_SECONDS, admin.getDescriptor(TABLE).getColumnFamily(FAMILY).getTimeToLive());
        }
    }

    /** A cell stamped two TTLs ago has expired when written: the family TTL is in force on the server. */
    private static void assertCellOlderThanTtlIsNotReturned(Table table) throws IOException {
        byte[] expiredRow = Bytes.toBytes("expired");
        long twoTtlsAgoMillis = System.currentTimeMillis() - 2_000L * FAMILY_TTL_SECONDS;
        table.put(new Put(expiredRow).addColumn(FAMILY, QUALIFIER, twoTtlsAgoMillis, VALUE));
        assertTrue(table.get(new Get(expiredRow)).isEmpty(), "a cell older than the family TTL was returned");
    }
}
