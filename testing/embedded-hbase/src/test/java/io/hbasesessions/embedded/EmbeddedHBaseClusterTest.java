package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
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

/**
 * A cluster of its own (ZooKeeper, master, 3 region servers): a pre-split table spreads over every
 * region server, rows written with SYNC_WAL survive {@code kill -9} of a region server, the killed one
 * rejoins, and stopping leaves no process. Prints FIGURE lines.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedHBaseClusterTest {

    private static final TableName TABLE = TableName.valueOf("spread");
    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");
    private static final int REGIONS = 12;
    private static final int ROWS = 600;
    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dataDirectory;

    private static EmbeddedHBaseCluster cluster;
    private static Connection connection;

    @BeforeAll
    static void startCluster() throws IOException {
        cluster = EmbeddedHBaseCluster.builder().dataDirectory(dataDirectory)
                .zookeeperSessionTimeout(Duration.ofSeconds(5)).build();
        Instant startCalled = Instant.now();
        cluster.start();
        figure("cluster start (ZooKeeper, master, 3 region servers)", Duration.between(startCalled, Instant.now()).toMillis() + " ms");
        connection = ConnectionFactory.createConnection(cluster.clientConfiguration());
    }

    @AfterAll
    static void stopClusterWithoutLeavingAProcess() throws IOException {
        connection.close();
        List<Long> pids = cluster.pids();
        cluster.stop();
        assertFalse(cluster.isRunning());
        pids.forEach(pid -> ServerProcesses.assertNoServerLeft(pid, dataDirectory));
    }

    @Test
    @Order(1)
    void everyProcessHasItsOwnLog() throws IOException {
        assertEquals(5, cluster.pids().size());
        for (Path log : List.of(cluster.zookeeperLogFile(), cluster.logFile(), cluster.regionServerLogFile(0),
                cluster.regionServerLogFile(1), cluster.regionServerLogFile(2))) {
            assertTrue(Files.size(log) > 0, log + " is empty");
        }
        assertTrue(Files.readString(cluster.regionServerLogFile(2)).contains("HRegionServer"));
    }

    @Test
    @Order(2)
    void aPreSplitTableHasRegionsOnEveryRegionServerAfterBalancing() throws IOException {
        createPreSplitTable();
        cluster.awaitAllRegionsAssigned(TABLE, WAIT);
        cluster.balance(TABLE, WAIT);
        Map<Integer, Integer> regions = cluster.regionsPerRegionServer(TABLE);
        figure("regions per region server after balance", regions.toString());
        assertEquals(REGIONS, regions.values().stream().mapToInt(Integer::intValue).sum());
        regions.forEach((server, count) -> assertTrue(count > 0, "region server " + server + " hosts none of " + regions));
    }

    @Test
    @Order(3)
    void rowsWrittenWithSyncWalSurviveKillOfTheRegionServerWithMostRegionsWhichThenRejoins() throws IOException {
        writeRows();
        int victim = mostLoaded(cluster.regionsPerRegionServer(TABLE));
        int rowsOnVictim = rowsOn(victim);

        Instant killed = Instant.now();
        cluster.killRegionServer(victim);
        cluster.awaitAllRegionsAssigned(TABLE, WAIT);
        figure("detection and reassignment after kill -9 of region server " + victim + " (" + rowsOnVictim
                + " rows on it, ZooKeeper session timeout 5 s)", Duration.between(killed, Instant.now()).toMillis() + " ms");
        assertFalse(cluster.isRegionServerRunning(victim));
        assertEquals(0, cluster.regionsPerRegionServer(TABLE).get(victim));

        int lost = countLostRows();
        figure("rows lost of " + ROWS + " written with SYNC_WAL", Integer.toString(lost));
        assertEquals(0, lost);

        Instant restarted = Instant.now();
        cluster.restartRegionServer(victim);
        figure("restart of region server " + victim + " until the master counts it live",
                Duration.between(restarted, Instant.now()).toMillis() + " ms");
        cluster.balance(TABLE, WAIT);
        Map<Integer, Integer> regions = cluster.regionsPerRegionServer(TABLE);
        figure("regions per region server after the restart and a balance", regions.toString());
        assertTrue(regions.get(victim) > 0, "the restarted region server got no region back: " + regions);
        assertEquals(0, countLostRows());
    }

    private static void createPreSplitTable() throws IOException {
        byte[][] splits = new byte[REGIONS - 1][];
        for (int i = 1; i < REGIONS; i++) {
            splits[i - 1] = new byte[] {(byte) (i * 256 / REGIONS)};
        }
        try (Admin admin = connection.getAdmin()) {
            admin.createTable(TableDescriptorBuilder.newBuilder(TABLE).setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY))
                    .build(), splits);
        }
    }

    /** Row keys spread evenly over the first byte, as the store's hashed session keys are. */
    private static byte[] row(int i) {
        return Bytes.add(new byte[] {(byte) (i * 256 / ROWS)}, Bytes.toBytes(i));
    }

    private static void writeRows() throws IOException {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            puts.add(new Put(row(i)).addColumn(FAMILY, QUALIFIER, Bytes.toBytes(i)).setDurability(Durability.SYNC_WAL));
        }
        try (Table table = connection.getTable(TABLE)) {
            table.put(puts);
        }
    }

    private static int rowsOn(int regionServer) {
        int rows = 0;
        for (int i = 0; i < ROWS; i++) {
            rows += cluster.regionServerHosting(TABLE, row(i)) == regionServer ? 1 : 0;
        }
        return rows;
    }

    private static int countLostRows() throws IOException {
        List<Get> gets = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            gets.add(new Get(row(i)));
        }
        int lost = 0;
        try (Table table = connection.getTable(TABLE)) {
            Result[] results = table.get(gets);
            for (int i = 0; i < ROWS; i++) {
                if (results[i].isEmpty()) {
                    lost++;
                } else {
                    assertArrayEquals(Bytes.toBytes(i), results[i].getValue(FAMILY, QUALIFIER));
                }
            }
        }
        return lost;
    }

    private static int mostLoaded(Map<Integer, Integer> regions) {
        return Collections.max(regions.entrySet(), Map.Entry.comparingByValue()).getKey();
    }

    /** One line per measured figure, collected with {@code grep -h '^FIGURE' target/surefire-reports/*-output.txt}. */
    private static void figure(String subject, String value) {
        System.out.println("FIGURE " + subject + ": " + value);
    }
}
