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
 * The schema of the {@code sessions} and {@code user_sessions} tables, of {@code session_expiry} with
 * {@code expiryEvents} and of {@code session_changes} with {@code stickySessions}: created when missing and {@code createTable} is on, otherwise checked, with every
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
     * The index tables delete cells they may write again at once (a logout and a login of the same session, a
     * sweep's lease): with it, a delete marker hides only cells written before it, not every cell of the same
     * millisecond. The sessions table never deletes (it writes end markers, {@link SessionRows}) and must not
     * have it: there every check of a named cell would step over each version the row kept since its last major
     * compaction, which a session rewritten on every request piles up.
     */
    private static final boolean INDEX_NEW_VERSION_BEHAVIOR = true;
    private static final boolean SESSIONS_NEW_VERSION_BEHAVIOR = false;

    private final AsyncAdmin admin;
    private final HBaseCalls calls;
    private final StoreSettings settings;
    private final Deadline deadline;

    /** With the start-up budget: at least a minute, as creating pre-split tables may need. */
    SessionTables(AsyncConnection connection, HBaseCalls calls, StoreSettings settings) {
        this(connection, calls, settings, settings.startUpTimeoutMillis());
    }

    /** @param budgetMillis bound on every step of this instance together (a health check passes a request's) */
    SessionTables(AsyncConnection connection, HBaseCalls calls, StoreSettings settings, long budgetMillis) {
        this.admin = connection.getAdminBuilder().setOperationTimeout(budgetMillis, TimeUnit.MILLISECONDS).build();
        this.calls = calls;
        this.settings = settings;
        this.deadline = Deadline.afterMillis(budgetMillis);
    }

    /** @throws StoreConfigurationException listing every table that is missing or differs, and how to fix it */
    void prepare() {
        List<String> problems = new ArrayList<>();
        for (TableName table : tableNames(settings)) {
            prepare(table, problems);
        }
        if (!problems.isEmpty()) {
            throw new StoreConfigurationException(String.join("\n", problems));
        }
    }

    /**
     * What {@link #prepare} with {@code createTable=false} would refuse to start with, in the same words:
     * every table that is missing or differs, with the command that fixes it; empty when the schema is right.
     */
    List<String> problems() {
        List<String> problems = new ArrayList<>();
        for (TableName table : tableNames(settings)) {
            if (await(admin.tableExists(table), "checking whether table " + table + " exists")) {
                checkSchema(table, problems, false);
            } else {
                problems.add(missing(table));
            }
        }
        return problems;
    }

    /**
     * Connects (or shares the open connection) and checks the schema, all within {@code operationTimeoutMillis}:
     * for a health check that must answer in a request's time even when HBase does not.
     */
    static StoreHealth checkHealth(StoreSettings settings) {
        long startNanos = System.nanoTime();
        HBaseCalls calls = new HBaseCalls(new LiveCounters());
        long budgetMillis = settings.get(Setting.OPERATION_TIMEOUT_MILLIS);
        try (SharedConnections.Lease lease = SharedConnections.acquire(settings, calls, budgetMillis)) {
            long leftMillis = Math.max(1, budgetMillis - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos));
            return checkHealth(lease.connection(), calls, settings, leftMillis, startNanos);
        } catch (StoreUnavailableException e) {
            return new StoreHealth(false, millisSince(startNanos), List.of(e.getMessage()));
        }
    }

    /** As {@link #checkHealth(StoreSettings)}, on an open connection. */
    static StoreHealth checkHealth(AsyncConnection connection, HBaseCalls calls, StoreSettings settings) {
        long startNanos = System.nanoTime();
        return checkHealth(connection, calls, settings, settings.get(Setting.OPERATION_TIMEOUT_MILLIS), startNanos);
    }

    private static StoreHealth checkHealth(AsyncConnection connection, HBaseCalls calls, StoreSettings settings,
            long budgetMillis, long startNanos) {
        try {
            List<String> problems = new SessionTables(connection, calls, settings, budgetMillis).problems();
            return new StoreHealth(problems.isEmpty(), millisSince(startNanos), problems);
        } catch (StoreUnavailableException e) {
            return new StoreHealth(false, millisSince(startNanos), List.of(e.getMessage()));
        }
    }

    private static long millisSince(long startNanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos);
    }

    /** Creates the tables that are missing, as a start with {@code createTable=true} does; returns their names. */
    List<String> createMissing() {
        List<String> created = new ArrayList<>();
        for (TableName table : tableNames(settings)) {
            if (!await(admin.tableExists(table), "checking whether table " + table + " exists")) {
                create(table);
                created.add(table.getNameAsString());
            }
        }
        return created;
    }

    /** The tables as {@link #createMissing} would create them; asks HBase nothing. */
    static List<TablePlan> plans(StoreSettings settings) {
        return tableNames(settings).stream().map(table -> new TablePlan(table.getNameAsString(),
                descriptor(settings, table).toString(), splitKeysHex(settings.get(Setting.REGIONS)),
                createCommand(settings, table))).toList();
    }

    private static List<TableName> tableNames(StoreSettings settings) {
        List<String> tables = new ArrayList<>(List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE)));
        if (settings.get(Setting.EXPIRY_EVENTS)) {
            tables.add(settings.get(Setting.EXPIRY_TABLE));
        }
        if (settings.get(Setting.STICKY_SESSIONS)) {
            tables.add(settings.get(Setting.CHANGES_TABLE));
        }
        return tables.stream().map(TableName::valueOf).toList();
    }

    private static List<String> splitKeysHex(int regions) {
        return Arrays.stream(splitKeys(regions)).map(key -> String.format(Locale.ROOT, "%02x", key[0] & 0xFF)).toList();
    }

    /** Split points: {@code regions} equal ranges of the first key byte. */
    static byte[][] splitKeys(int regions) {
        return IntStream.range(1, regions).mapToObj(i -> new byte[] {(byte) (i * 256 / regions)}).toArray(byte[][]::new);
    }

    private void prepare(TableName name, List<String> problems) {
        if (await(admin.tableExists(name), "checking whether table " + name + " exists")) {
            checkSchema(name, problems, true);
        } else if (settings.get(Setting.CREATE_TABLE)) {
            create(name);
        } else {
            problems.add(missing(name));
        }
    }

    /**
     * Only a start with {@code createTable=false} stops at a missing table; a health check of a store that would
     * create it (a node with {@code createTable=true} whose table was dropped since) says so instead.
     */
    private String missing(TableName name) {
        boolean created = settings.get(Setting.CREATE_TABLE);
        return "Table '" + name + "' does not exist" + (created ? "" : " and createTable=false")
                + ". Create it in the HBase shell with\n  " + createCommand(settings, name)
                + (created ? "\nor restart a node (createTable=true creates it)." : "\nor set createTable=true.");
    }

    private void create(TableName name) {
        createNamespaceIfMissing(name.getNamespaceAsString());
        TableDescriptor descriptor = descriptor(settings, name);
        // Another node starting at the same moment may create it first; its schema is then checked like any other.
        byte[][] splitKeys = splitKeys(settings.get(Setting.REGIONS));
        CompletableFuture<Void> creation = (splitKeys.length == 0 ? admin.createTable(descriptor)
                : admin.createTable(descriptor, splitKeys)).exceptionally(e -> ignoreIf(TableExistsException.class, e));
        try {
            await(creation, "creating table " + name);
        } catch (StoreUnavailableException e) {
            throw compression(settings) == TableCompression.NONE || !mayBeTheCodec(e) ? e : codecNotLoaded(name, e);
        }
        List<String> raced = new ArrayList<>();
        checkSchema(name, raced, true);
        if (!raced.isEmpty()) {
            throw new StoreConfigurationException(String.join("\n", raced));
        }
    }

    private static TableDescriptor descriptor(StoreSettings settings, TableName name) {
        return TableDescriptorBuilder.newBuilder(name).setColumnFamily(family(settings, name))
                .setRegionReplication(regionReplication(settings, name)).build();
    }

    /**
     * The master test-loads a family's codec before it creates a table ({@code hbase.table.sanity.checks}, on by
     * default) and refuses one it cannot load; with the check off the table is created and its regions fail to
     * open on every region server that cannot load it, so the creation times out. Either way the fix is on the
     * servers, or in this setting.
     */
    private StoreConfigurationException codecNotLoaded(TableName name, StoreUnavailableException failure) {
        TableCompression codec = compression(settings);
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

    private static TableCompression compression(StoreSettings settings) {
        return settings.get(Setting.COMPRESSION);
    }

    private void createNamespaceIfMissing(String namespace) {
        List<String> existing = await(admin.listNamespaces(), "listing namespaces");
        if (!existing.contains(namespace)) {
            await(admin.createNamespace(NamespaceDescriptor.create(namespace).build())
                    .exceptionally(e -> ignoreIf(NamespaceExistException.class, e)), "creating namespace " + namespace);
        }
    }

    /** @param starting a node's start, which also warns of what works but costs (not each health check) */
    private void checkSchema(TableName name, List<String> problems, boolean starting) {
        TableDescriptor table = await(admin.getDescriptor(name), "reading the schema of " + name);
        ColumnFamilyDescriptor actual = table.getColumnFamily(HBaseSessionRows.FAMILY);
        List<String> differences = actual == null ? List.of("it has no column family 's'") : differences(actual, name);
        if (!differences.isEmpty()) {
            problems.add("Table '" + name + "' does not have the schema hbase-sessions needs: "
                    + String.join("; ", differences) + ". Fix it in the HBase shell with\n  alter '" + name + "', "
                    + familySpec(settings, name));
        }
        if (isSessionsTable(settings, name)) {
            if (starting && actual != null && actual.isNewVersionBehavior()) {
                warnOfVersionBehavior(name);
            }
            checkReplication(name, table.getRegionReplication(), problems);
        }
    }

    /**
     * A sessions table made before issue #29 has NEW_VERSION_BEHAVIOR: sessions work on it (no store of this
     * release deletes a session row), but every read and write of a session costs more with each rewrite since
     * the last major compaction. The delete markers earlier releases wrote must be gone before the option is
     * turned off (without it a marker would hide a session created again in its millisecond): a major compaction
     * removes them, and once every node runs this release no new one is written.
     */
    private void warnOfVersionBehavior(TableName name) {
        String message = "Table '" + name + "' has NEW_VERSION_BEHAVIOR => true, which makes every session read and "
                + "write slower the more often the session was written since the last major compaction. Once every "
                + "node runs this release, migrate it in the HBase shell with\n  " + versionBehaviorMigration(name)
                + "\n(run the alter when the compaction has finished: compaction_state '" + name + "' says NONE).";
        LOG.log(Level.WARNING, () -> message);
    }

    /** The shell commands that take NEW_VERSION_BEHAVIOR off a sessions table made before issue #29. */
    static String versionBehaviorMigration(TableName name) {
        return "major_compact '" + name + "'\n  alter '" + name + "', {NAME => 's', NEW_VERSION_BEHAVIOR => 'false'}";
    }

    /**
     * Replicas are read-only copies, not part of what sessions need: a table with another count is used as
     * it is (an operator may alter it before every node's {@code regionReplicas} says so), unless
     * {@code timelineReads} would have no secondary to read from.
     */
    private void checkReplication(TableName name, int actual, List<String> problems) {
        int wanted = regionReplication(settings, name);
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

    private static boolean isSessionsTable(StoreSettings settings, TableName name) {
        return name.equals(TableName.valueOf(settings.get(Setting.TABLE)));
    }

    private static int regionReplication(StoreSettings settings, TableName name) {
        return isSessionsTable(settings, name) ? settings.get(Setting.REGION_REPLICAS) : 1;
    }

    private List<String> differences(ColumnFamilyDescriptor actual, TableName name) {
        List<String> differences = new ArrayList<>();
        difference("VERSIONS", actual.getMaxVersions(), VERSIONS, differences);
        difference("BLOOMFILTER", actual.getBloomFilterType(), BLOOM, differences);
        difference("DATA_BLOCK_ENCODING", actual.getDataBlockEncoding(), ENCODING, differences);
        difference("COMPRESSION", actual.getCompressionType().name(), compression(settings).name(), differences);
        difference("TTL", (long) actual.getTimeToLive(), settings.get(Setting.MAX_LIFETIME_SECONDS), differences);
        if (!isSessionsTable(settings, name)) {
            difference("NEW_VERSION_BEHAVIOR", actual.isNewVersionBehavior(), newVersionBehavior(settings, name),
                    differences);
        }
        return differences;
    }

    private static void difference(String property, Object actual, Object expected, List<String> differences) {
        if (!actual.equals(expected)) {
            differences.add(property + " is " + actual + ", needs " + expected);
        }
    }

    private static ColumnFamilyDescriptor family(StoreSettings settings, TableName name) {
        return ColumnFamilyDescriptorBuilder.newBuilder(HBaseSessionRows.FAMILY)
                .setMaxVersions(VERSIONS)
                .setBloomFilterType(BLOOM)
                .setDataBlockEncoding(ENCODING)
                .setCompressionType(Compression.Algorithm.valueOf(compression(settings).name()))
                .setTimeToLive((int) (long) settings.get(Setting.MAX_LIFETIME_SECONDS))
                .setNewVersionBehavior(newVersionBehavior(settings, name))
                .build();
    }

    /** The changes table, like the sessions table, never deletes: it only overwrites a change with a newer one. */
    private static boolean newVersionBehavior(StoreSettings settings, TableName name) {
        return isSessionsTable(settings, name) || name.equals(TableName.valueOf(settings.get(Setting.CHANGES_TABLE)))
                ? SESSIONS_NEW_VERSION_BEHAVIOR : INDEX_NEW_VERSION_BEHAVIOR;
    }

    private static String familySpec(StoreSettings settings, TableName name) {
        return String.format(Locale.ROOT, "{NAME => 's', VERSIONS => %d, BLOOMFILTER => '%s', "
                + "DATA_BLOCK_ENCODING => '%s', COMPRESSION => '%s', TTL => %d, NEW_VERSION_BEHAVIOR => '%s'}", VERSIONS,
                BLOOM, ENCODING, compression(settings), settings.get(Setting.MAX_LIFETIME_SECONDS),
                newVersionBehavior(settings, name));
    }

    private static String createCommand(StoreSettings settings, TableName name) {
        String splits = Arrays.stream(splitKeys(settings.get(Setting.REGIONS)))
                .map(key -> String.format(Locale.ROOT, "\"\\x%02X\"", key[0] & 0xFF))
                .collect(Collectors.joining(", ", "[", "]"));
        String namespace = name.getNamespaceAsString();
        String createNamespace = NamespaceDescriptor.DEFAULT_NAMESPACE_NAME_STR.equals(namespace)
                ? "" : "create_namespace '" + namespace + "'  (if missing)\n  ";
        int replication = regionReplication(settings, name);
        String replicas = replication > 1 ? ", REGION_REPLICATION => " + replication : "";
        return createNamespace + "create '" + name + "', " + familySpec(settings, name) + ", {SPLITS => " + splits
                + replicas
                + "}";
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
