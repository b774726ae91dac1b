package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceExistException;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncAdmin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.io.compress.Compression;
import org.apache.hadoop.hbase.io.encoding.DataBlockEncoding;
import org.apache.hadoop.hbase.regionserver.BloomType;

/**
 * The schema of the {@code sessions} and {@code user_sessions} tables, and of {@code session_expiry} with
 * {@code expiryEvents}: created when missing and {@code createTable} is on, otherwise checked, with every
 * difference and the shell command that fixes it in one message. The tables share one family layout; their
 * keys all start with a uniformly distributed byte (a hash, a salt), so all are pre-split on it. Only the
 * sessions table gets {@code regionReplicas}: the indexes are read only by revocation, "find by user" and
 * the expiry sweep, which must see the primary, so a replica of them would cost memory and replication and
 * serve no read.
 */
final class SessionTables {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());

    private static final int VERSIONS = 1;
    private static final BloomType BLOOM = BloomType.ROW;
    private static final DataBlockEncoding ENCODING = DataBlockEncoding.FAST_DIFF;
    /**
     * A delete marker hides only cells written before it, not every cell with the same millisecond
     * timestamp: a session deleted and created again in one millisecond (an invalidation followed by
     * a login, a revocation racing a create) stays visible.
     */
    private static final boolean NEW_VERSION_BEHAVIOR = true;

    private final AsyncAdmin admin;
    private final HBaseCalls calls;
    private final StoreSettings settings;
    private final Deadline deadline;

    SessionTables(AsyncConnection connection, HBaseCalls calls, StoreSettings settings) {
        long budgetMillis = settings.startUpTimeoutMillis();
        this.admin = connection.getAdminBuilder().setOperationTimeout(budgetMillis, TimeUnit.MILLISECONDS).build();
        this.calls = calls;
        this.settings = settings;
        this.deadline = Deadline.afterMillis(budgetMillis);
    }

    /** @throws StoreConfigurationException listing every table that is missing or differs, and how to fix it */
    void prepare() {
        List<String> problems = new ArrayList<>();
        List<String> tables = new ArrayList<>(List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE)));
        if (settings.get(Setting.EXPIRY_EVENTS)) {
            tables.add(settings.get(Setting.EXPIRY_TABLE));
        }
        for (String table : tables) {
            prepare(TableName.valueOf(table), problems);
        }
        if (!problems.isEmpty()) {
            throw new StoreConfigurationException(String.join("\n", problems));
        }
    }

    /** Split points: {@code regions} equal ranges of the first key byte. */
    static byte[][] splitKeys(int regions) {
        return IntStream.range(1, regions).mapToObj(i -> new byte[] {(byte) (i * 256 / regions)}).toArray(byte[][]::new);
    }

    private void prepare(TableName name, List<String> problems) {
        if (await(admin.tableExists(name), "checking whether table " + name + " exists")) {
            checkSchema(name, problems);
        } else if (settings.get(Setting.CREATE_TABLE)) {
            create(name);
        } else {
            problems.add("Table '" + name + "' does not exist and createTable=false. Create it in the HBase shell with\n  "
                    + createCommand(name) + "\nor set createTable=true.");
        }
    }

    private void create(TableName name) {
        createNamespaceIfMissing(name.getNamespaceAsString());
        TableDescriptor descriptor = TableDescriptorBuilder.newBuilder(name).setColumnFamily(family())
                .setRegionReplication(regionReplication(name)).build();
        // Another node starting at the same moment may create it first; its schema is then checked like any other.
        byte[][] splitKeys = splitKeys(settings.get(Setting.REGIONS));
        CompletableFuture<Void> creation = (splitKeys.length == 0 ? admin.createTable(descriptor)
                : admin.createTable(descriptor, splitKeys)).exceptionally(e -> ignoreIf(TableExistsException.class, e));
        try {
            await(creation, "creating table " + name);
        } catch (StoreUnavailableException e) {
            throw compression() == TableCompression.NONE || !mayBeTheCodec(e) ? e : codecNotLoaded(name, e);
        }
        List<String> raced = new ArrayList<>();
        checkSchema(name, raced);
        if (!raced.isEmpty()) {
            throw new StoreConfigurationException(String.join("\n", raced));
        }
    }

    /**
     * The master test-loads a family's codec before it creates a table ({@code hbase.table.sanity.checks}, on by
     * default) and refuses one it cannot load; with the check off the table is created and its regions fail to
     * open on every region server that cannot load it, so the creation times out. Either way the fix is on the
     * servers, or in this setting.
     */
    private StoreConfigurationException codecNotLoaded(TableName name, StoreUnavailableException failure) {
        TableCompression codec = compression();
        String setting = codec.codecSetting();
        return new StoreConfigurationException("Table '" + name + "' could not be created with compression="
                + codec.name().toLowerCase(Locale.ROOT) + " (" + failure.getMessage() + "). The HBase master and "
                + "region servers must be able to load the " + codec + " codec: put a codec for it on their classpath, "
                + "name its class in their hbase-site.xml as " + setting + " (for example from "
                + "hbase-compression-aircompressor), restart them and check with  hbase "
                + "org.apache.hadoop.hbase.util.CompressionTest file:///tmp/test " + codec.name().toLowerCase(Locale.ROOT)
                + "  on each; or set compression=gz (pure Java) or compression=none.", failure);
    }

    /** The master's sanity check names itself in its refusal; without the check, the creation times out. */
    private static boolean mayBeTheCodec(StoreUnavailableException failure) {
        String message = String.valueOf(failure.getMessage());
        return message.contains("hbase.table.sanity.checks") || message.contains("did not finish");
    }

    private TableCompression compression() {
        return settings.get(Setting.COMPRESSION);
    }

    private void createNamespaceIfMissing(String namespace) {
        List<String> existing = await(admin.listNamespaces(), "listing namespaces");
        if (!existing.contains(namespace)) {
            await(admin.createNamespace(NamespaceDescriptor.create(namespace).build())
                    .exceptionally(e -> ignoreIf(NamespaceExistException.class, e)), "creating namespace " + namespace);
        }
    }

    private void checkSchema(TableName name, List<String> problems) {
        TableDescriptor table = await(admin.getDescriptor(name), "reading the schema of " + name);
        ColumnFamilyDescriptor actual = table.getColumnFamily(HBaseSessionRows.FAMILY);
        List<String> differences = actual == null ? List.of("it has no column family 's'") : differences(actual);
        if (!differences.isEmpty()) {
            problems.add("Table '" + name + "' does not have the schema hbase-sessions needs: "
                    + String.join("; ", differences) + ". Fix it in the HBase shell with\n  alter '" + name + "', "
                    + familySpec());
        }
        if (isSessionsTable(name)) {
            checkReplication(name, table.getRegionReplication(), problems);
        }
    }

    /**
     * Replicas are read-only copies, not part of what sessions need: a table with another count is used as
     * it is (an operator may alter it before every node's {@code regionReplicas} says so), unless
     * {@code timelineReads} would have no secondary to read from.
     */
    private void checkReplication(TableName name, int actual, List<String> problems) {
        int wanted = regionReplication(name);
        if (actual == wanted) {
            return;
        }
        // HBase 2.6 changes REGION_REPLICATION of an enabled table: new replicas are opened, excess ones closed.
        String fix = "alter '" + name + "', {REGION_REPLICATION => " + wanted + "}";
        if (actual < 2 && settings.get(Setting.TIMELINE_READS)) {
            problems.add("Table '" + name + "' has REGION_REPLICATION " + actual + ": timelineReads needs a secondary "
                    + "replica to read from. Fix it in the HBase shell with\n  " + fix + "\n(the table stays enabled), "
                    + "or set timelineReads=false.");
        } else {
            LOG.log(Level.WARNING, "Table ''{0}'' has REGION_REPLICATION {1} and regionReplicas is {2}: the store uses "
                    + "the table as it is. To change the table, run in the HBase shell  {3}", name, actual, wanted, fix);
        }
    }

    private boolean isSessionsTable(TableName name) {
        return name.equals(TableName.valueOf(settings.get(Setting.TABLE)));
    }

    private int regionReplication(TableName name) {
        return isSessionsTable(name) ? settings.get(Setting.REGION_REPLICAS) : 1;
    }

    private List<String> differences(ColumnFamilyDescriptor actual) {
        List<String> differences = new ArrayList<>();
        difference("VERSIONS", actual.getMaxVersions(), VERSIONS, differences);
        difference("BLOOMFILTER", actual.getBloomFilterType(), BLOOM, differences);
        difference("DATA_BLOCK_ENCODING", actual.getDataBlockEncoding(), ENCODING, differences);
        difference("COMPRESSION", actual.getCompressionType().name(), compression().name(), differences);
        difference("TTL", (long) actual.getTimeToLive(), settings.get(Setting.MAX_LIFETIME_SECONDS), differences);
        difference("NEW_VERSION_BEHAVIOR", actual.isNewVersionBehavior(), NEW_VERSION_BEHAVIOR, differences);
        return differences;
    }

    private static void difference(String property, Object actual, Object expected, List<String> differences) {
        if (!actual.equals(expected)) {
            differences.add(property + " is " + actual + ", needs " + expected);
        }
    }

    private ColumnFamilyDescriptor family() {
        return ColumnFamilyDescriptorBuilder.newBuilder(HBaseSessionRows.FAMILY)
                .setMaxVersions(VERSIONS)
                .setBloomFilterType(BLOOM)
                .setDataBlockEncoding(ENCODING)
                .setCompressionType(Compression.Algorithm.valueOf(compression().name()))
                .setTimeToLive((int) (long) settings.get(Setting.MAX_LIFETIME_SECONDS))
                .setNewVersionBehavior(NEW_VERSION_BEHAVIOR)
                .build();
    }

    private String familySpec() {
        return String.format(Locale.ROOT, "{NAME => 's', VERSIONS => %d, BLOOMFILTER => '%s', "
                + "DATA_BLOCK_ENCODING => '%s', COMPRESSION => '%s', TTL => %d, NEW_VERSION_BEHAVIOR => '%s'}", VERSIONS,
                BLOOM, ENCODING, compression(), settings.get(Setting.MAX_LIFETIME_SECONDS), NEW_VERSION_BEHAVIOR);
    }

    private String createCommand(TableName name) {
        String splits = Arrays.stream(splitKeys(settings.get(Setting.REGIONS)))
                .map(key -> String.format(Locale.ROOT, "\"\\x%02X\"", key[0] & 0xFF))
                .collect(Collectors.joining(", ", "[", "]"));
        String namespace = name.getNamespaceAsString();
        String createNamespace = NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR.equals(namespace)
                ? "" : "create_namespace '" + namespace + "'  (if missing)\n  ";
        String replicas = regionReplication(name) > 1 ? ", REGION_REPLICATION => " + regionReplication(name) : "";
        return createNamespace + "create '" + name + "', " + familySpec() + ", {SPLITS => " + splits + replicas + "}";
    }

    private <T> T await(CompletableFuture<T> call, String what) {
        return calls.await(call, deadline, null, what);
    }

    private static <T> T ignoreIf(Class<? extends Throwable> expected, Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (expected.isInstance(cause)) {
            return null;
        }
        throw failure instanceof CompletionException completion ? completion : new CompletionException(failure);
    }
}
