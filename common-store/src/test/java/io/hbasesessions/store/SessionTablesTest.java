package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue #3, point 2: the schema the store creates, and what it says about tables it cannot use. */
@ExtendWith(HBaseExtension.class)
class SessionTablesTest {

    private static HBaseInspector hbase;
    private static Admin admin;

    @BeforeAll
    static void connect(Configuration configuration) {
        hbase = new HBaseInspector(configuration);
        admin = hbase.admin();
    }

    @AfterAll
    static void disconnect() throws Exception {
        admin.close();
        hbase.close();
    }

    @Test
    void createsBothTablesWithTheDesignedSchemaAndSixteenEqualRegions(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        StoreSettings settings = TestStores.settings(server, namespace).table(namespace.table("sessions16"))
                .indexTable(namespace.table("user_sessions16")).regions(StoreSettings.DEFAULT_REGIONS)
                .maxLifetimeSeconds(86_400).build();
        try (SessionStore store = SessionStores.open(settings)) {
            for (String table : List.of(settings.table(), settings.indexTable())) {
                TableDescriptor descriptor = admin.getDescriptor(TableName.valueOf(table));
                assertEquals(1, descriptor.getColumnFamilyCount(), table);
                ColumnFamilyDescriptor family = descriptor.getColumnFamily(Bytes.toBytes("s"));
                assertEquals(1, family.getMaxVersions(), table);
                assertEquals(BloomType.ROW, family.getBloomFilterType(), table);
                assertEquals(DataBlockEncoding.FAST_DIFF, family.getDataBlockEncoding(), table);
                assertEquals(86_400, family.getTimeToLive(), table);
                assertRegionsSplitOnTheFirstByte(table, 16);
            }
        }
    }

    private static void assertRegionsSplitOnTheFirstByte(String table, int count) throws Exception {
        List<RegionInfo> regions = admin.getRegions(TableName.valueOf(table)).stream()
                .sorted(Comparator.comparing(RegionInfo::getStartKey, Bytes.BYTES_COMPARATOR)).toList();
        assertEquals(count, regions.size(), table);
        assertArrayEquals(new byte[0], regions.get(0).getStartKey());
        for (int i = 1; i < count; i++) {
            assertArrayEquals(new byte[] {(byte) (i * 256 / count)}, regions.get(i).getStartKey(), table + " region " + i);
        }
    }

    @Test
    void createsAMissingNamespace(EmbeddedHBase server, TestNamespace namespace) throws Exception {
        String fresh = namespace.name() + "_fresh";
        StoreSettings settings = TestStores.settings(server, namespace).table(fresh + ":sessions")
                .indexTable(fresh + ":user_sessions").regions(1).build();
        try (SessionStore store = SessionStores.open(settings)) {
            assertTrue(admin.tableExists(TableName.valueOf(fresh + ":sessions")));
            assertTrue(admin.tableExists(TableName.valueOf(fresh + ":user_sessions")));
        }
    }

    @Test
    void missingTableWithCreateTableOffSaysHowToCreateIt(EmbeddedHBase server, TestNamespace namespace) {
        StoreSettings settings = TestStores.settings(server, namespace).table(namespace.table("absent"))
                .indexTable(namespace.table("absent_index")).createTable(false).build();

        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, () -> SessionStores.open(settings));
        String message = e.getMessage();
        assertTrue(message.contains("Table '" + settings.table() + "' does not exist and createTable=false"), message);
        assertTrue(message.contains("Table '" + settings.indexTable() + "' does not exist"), message);
        assertTrue(message.contains("create '" + settings.table() + "', {NAME => 's', VERSIONS => 1, "
                + "BLOOMFILTER => 'ROW', DATA_BLOCK_ENCODING => 'FAST_DIFF', TTL => 604800}, {SPLITS => [\"\\x80\"]}"), message);
        assertTrue(message.contains("or set createTable=true"), message);
    }

    @Test
    void schemaDifferencesAreAllListedWithTheAlterThatFixesThem(EmbeddedHBase server, TestNamespace namespace)
            throws Exception {
        StoreSettings settings = TestStores.settings(server, namespace).table(namespace.table("wrong"))
                .indexTable(namespace.table("wrong_index")).build();
        admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(settings.table()))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("s")).setMaxVersions(3)
                        .setBloomFilterType(BloomType.NONE).setTimeToLive(3600).build())
                .build());

        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, () -> SessionStores.open(settings));
        String message = e.getMessage();
        for (String expected : List.of("VERSIONS is 3, needs 1", "BLOOMFILTER is NONE, needs ROW",
                "DATA_BLOCK_ENCODING is NONE, needs FAST_DIFF", "TTL is 3600, needs 604800",
                "alter '" + settings.table() + "', {NAME => 's', VERSIONS => 1, BLOOMFILTER => 'ROW', "
                        + "DATA_BLOCK_ENCODING => 'FAST_DIFF', TTL => 604800}")) {
            assertTrue(message.contains(expected), "missing '" + expected + "' in: " + message);
        }
    }

    @Test
    void tableWithoutTheFamilyIsReported(EmbeddedHBase server, TestNamespace namespace) throws Exception {
        StoreSettings settings = TestStores.settings(server, namespace).table(namespace.table("other_family"))
                .indexTable(namespace.table("other_family_index")).build();
        admin.createTable(TableDescriptorBuilder.newBuilder(TableName.valueOf(settings.table()))
                .setColumnFamily(ColumnFamilyDescriptorBuilder.of("data")).build());

        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, () -> SessionStores.open(settings));
        assertTrue(e.getMessage().contains("it has no column family 's'"), e.getMessage());
    }
}
