package io.hbasesessions.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.security.SecureRandom;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.TestInfo;

/**
 * The HBase namespace of one test class on the shared server, so test classes never see each other's
 * rows. Created on first use by {@link HBaseExtension}; its name looks like {@code t_SessionStoreTest_k3x9qa}.
 */
public final class TestNamespace {

    private static final String RANDOM_CHARACTERS = "abcdefghijklmnopqrstuvwxyz0123456789";
    private static final int RANDOM_SUFFIX_LENGTH = 6;
    private static final Random RANDOM = new SecureRandom();

    private final String name;

    TestNamespace(String name) {
        this.name = name;
    }

    /** A new name for the namespace of {@code testClass}: {@code t_<SimpleClassName>_<6 random characters>}. */
    static String newName(Class<?> testClass) {
        StringBuilder name = new StringBuilder("t_").append(legal(testClass.getSimpleName())).append('_');
        for (int i = 0; i < RANDOM_SUFFIX_LENGTH; i++) {
            name.append(RANDOM_CHARACTERS.charAt(RANDOM.nextInt(RANDOM_CHARACTERS.length())));
        }
        return name.toString();
    }

    public String name() {
        return name;
    }

    /** A table of this namespace: {@code "<namespace>:<base>"}, for {@code TableName.valueOf(String)}. */
    public String table(String base) {
        return name + ":" + legal(base);
    }

    /** A table of its own for one test method: {@code "<namespace>:<base>_<methodName>"}. */
    public String table(String base, String methodName) {
        return table(base + "_" + methodName);
    }

    /** A table of its own for the running test method: {@code "<namespace>:<base>_<methodName>"}. */
    public String table(String base, TestInfo testInfo) {
        String methodName = testInfo.getTestMethod().map(Method::getName)
                .orElseThrow(() -> new EmbeddedHBaseException("No test method in " + testInfo.getDisplayName()
                        + ": use table(base) outside test methods"));
        return table(base, methodName);
    }

    /**
     * Whether any row key or cell value of any table of this namespace holds {@code bytes}: for tests
     * that show something (a password, a raw id) is never stored, whatever serializer wrote the cell.
     */
    public boolean storesBytes(Configuration client, byte[] bytes) {
        try (Connection connection = ConnectionFactory.createConnection(client); Admin admin = connection.getAdmin()) {
            return anyCellHolds(connection, List.of(admin.listTableNamesByNamespace(name)), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not scan namespace " + name, e);
        }
    }

    /**
     * Whether any row key or cell value of {@code tables} holds {@code bytes}: as {@link #storesBytes}, for
     * tables outside a test namespace (a server installed as docs/install.md says uses the default names).
     */
    public static boolean anyCellHolds(Configuration client, List<String> tables, byte[] bytes) {
        try (Connection connection = ConnectionFactory.createConnection(client)) {
            return anyCellHolds(connection, tables.stream().map(TableName::valueOf).toList(), bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not scan " + tables, e);
        }
    }

    private static boolean anyCellHolds(Connection connection, List<TableName> tables, byte[] bytes) throws IOException {
        for (TableName tableName : tables) {
            try (Table table = connection.getTable(tableName); ResultScanner rows = table.getScanner(new Scan())) {
                for (Result row : rows) {
                    for (Cell cell : row.rawCells()) {
                        if (Bytes.indexOf(CellUtil.cloneRow(cell), bytes) >= 0
                                || Bytes.indexOf(CellUtil.cloneValue(cell), bytes) >= 0) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return name;
    }

    /** HBase namespace names allow only ASCII letters, digits and '_'; table names allow those too. */
    private static String legal(String text) {
        return text.replaceAll("[^A-Za-z0-9_]", "_");
    }
}
