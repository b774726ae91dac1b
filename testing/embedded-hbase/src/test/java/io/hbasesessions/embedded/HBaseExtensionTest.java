package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
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
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/** Two test classes (the nested ones) share one server and get namespaces of their own. */
class HBaseExtensionTest {

    private static final byte[] FAMILY = Bytes.toBytes("f");
    private static final byte[] QUALIFIER = Bytes.toBytes("q");

    /** What each test class saw, by class. */
    private static final Map<Class<?>, Seen> SEEN = new ConcurrentHashMap<>();

    private record Seen(EmbeddedHBase server, String namespace) {
    }

    @AfterAll
    static void bothClassesSawTheSameServerAndDifferentNamespaces() {
        Seen first = SEEN.get(FirstClass.class);
        Seen second = SEEN.get(SecondClass.class);
        assertEquals(2, SEEN.size(), "both test classes ran: " + SEEN.keySet());
        assertSame(first.server(), second.server());
        assertNotEquals(first.namespace(), second.namespace());
    }

    @Nested
    @ExtendWith(HBaseExtension.class)
    class FirstClass {

        @Test
        void writesAndReadsInItsOwnNamespace(EmbeddedHBase server, TestNamespace namespace, Configuration configuration,
                TestInfo testInfo) throws IOException {
            SEEN.put(FirstClass.class, new Seen(server, namespace.name()));
            assertTrue(namespace.name().matches("t_FirstClass_[a-z0-9]{6}"), namespace.name());
            assertEquals(namespace.name() + ":rows_writesAndReadsInItsOwnNamespace", namespace.table("rows", testInfo));
            assertEquals(Integer.toString(server.zookeeperPort()), configuration.get("hbase.zookeeper.property.clientPort"));
            writeAndRead(configuration, TableName.valueOf(namespace.table("rows", testInfo)));
        }
    }

    @Nested
    @ExtendWith(HBaseExtension.class)
    class SecondClass {

        private static TestNamespace namespaceBeforeAll;

        @BeforeAll
        static void resolvesParametersOfStaticLifecycleMethods(TestNamespace namespace, EmbeddedHBase server) {
            assertTrue(server.isRunning());
            namespaceBeforeAll = namespace;
        }

        @Test
        void getsTheSameNamespaceInEveryMethodOfTheClass(EmbeddedHBase server, TestNamespace namespace,
                Configuration configuration) throws IOException {
            SEEN.put(SecondClass.class, new Seen(server, namespace.name()));
            assertSame(namespaceBeforeAll, namespace);
            writeAndRead(configuration, TableName.valueOf(namespace.table("rows")));
        }
    }

    private static void writeAndRead(Configuration configuration, TableName tableName) throws IOException {
        try (Connection connection = ConnectionFactory.createConnection(configuration)) {
            try (Admin admin = connection.getAdmin()) {
                admin.createTable(TableDescriptorBuilder.newBuilder(tableName)
                        .setColumnFamily(ColumnFamilyDescriptorBuilder.of(FAMILY)).build());
            }
            try (Table table = connection.getTable(tableName)) {
                byte[] row = Bytes.toBytes("row");
                table.put(new Put(row).addColumn(FAMILY, QUALIFIER, row));
                assertArrayEquals(row, table.get(new Get(row)).getValue(FAMILY, QUALIFIER));
            }
        }
    }
}
