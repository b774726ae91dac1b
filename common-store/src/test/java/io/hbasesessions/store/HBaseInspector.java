package io.hbasesessions.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Consistency;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

/** Looks at HBase directly, past the store: raw rows, whole-table scans, raw writes, schema. */
public final class HBaseInspector implements AutoCloseable {

    private final Connection connection;

    public HBaseInspector(Configuration configuration) {
        try {
            this.connection = ConnectionFactory.createConnection(configuration);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Result row(String table, byte[] rowKey) {
        try (Table t = connection.getTable(TableName.valueOf(table))) {
            return t.get(new Get(rowKey));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The rows as replica {@code replicaId} of their regions holds them (0 is the primary), in the order of
     * {@code rowKeys}: what a secondary would answer a timeline read with.
     */
    public List<Result> rowsOfReplica(String table, List<byte[]> rowKeys, int replicaId) {
        List<Get> gets = rowKeys.stream()
                .map(row -> new Get(row).setConsistency(Consistency.TIMELINE).setReplicaId(replicaId)).toList();
        try (Table t = connection.getTable(TableName.valueOf(table))) {
            return List.of(t.get(gets));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Result> scan(String table) {
        return scan(table, new Scan());
    }

    /** Every cell of the table a raw scan finds: each version still kept, and delete markers. */
    public List<Result> rawScan(String table) {
        return scan(table, new Scan().setRaw(true).readAllVersions());
    }

    private List<Result> scan(String table, Scan scan) {
        List<Result> rows = new ArrayList<>();
        try (Table t = connection.getTable(TableName.valueOf(table)); ResultScanner scanner = t.getScanner(scan)) {
            scanner.forEach(rows::add);
            return rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void put(String table, Put put) {
        try (Table t = connection.getTable(TableName.valueOf(table))) {
            t.put(put);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void delete(String table, Delete delete) {
        try (Table t = connection.getTable(TableName.valueOf(table))) {
            t.delete(delete);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Admin admin() {
        try {
            return connection.getAdmin();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        connection.close();
    }
}
