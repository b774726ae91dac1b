package io.hbasesessions.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.LinkedHashMap;

/**
 * Everything a store is configured with, by the names that Tomcat attributes, the Jetty module and
 * the factories share. Checked once, when built, with messages that say how to fix the setting.
 */
public final class StoreSettings {

    public static final String DEFAULT_TABLE = "sessions";
    public static final String DEFAULT_INDEX_TABLE = "user_sessions";
    public static final int DEFAULT_REGIONS = 16;
    public static final long DEFAULT_MAX_LIFETIME_SECONDS = 7L * 24 * 3600;
    public static final long DEFAULT_TOUCH_INTERVAL_SECONDS = 60;
    public static final long DEFAULT_OPERATION_TIMEOUT_MILLIS = 5_000;
    public static final long DEFAULT_MAX_SESSION_BYTES = 1024 * 1024;
    private static final long MIN_START_UP_TIMEOUT_MILLIS = 60_000;
    /** Below HBase's default 10 MB cell limit (hbase.client.keyvalue.maxsize), leaving room for the version cell. */
    static final long MAX_SESSION_BYTES_CEILING = 8L * 1024 * 1024;

    private final Path hbaseSite;
    private final String zookeeperQuorum;
    private final String table;
    private final String indexTable;
    private final String keyScope;
    private final int regions;
    private final long maxLifetimeSeconds;
    private final long touchIntervalSeconds;
    private final LockingMode lockingMode;
    private final WriteDurability writeDurability;
    private final WriteDurability touchDurability;
    private final long operationTimeoutMillis;
    private final FailMode failMode;
    private final SerializerKind serializer;
    private final long maxSessionBytes;
    private final boolean createTable;

    private StoreSettings(Builder b) {
        this.hbaseSite = b.hbaseSite;
        this.zookeeperQuorum = b.zookeeperQuorum;
        this.table = b.table;
        this.indexTable = b.indexTable;
        this.keyScope = b.keyScope;
        this.regions = b.regions;
        this.maxLifetimeSeconds = b.maxLifetimeSeconds;
        this.touchIntervalSeconds = b.touchIntervalSeconds;
        this.lockingMode = b.lockingMode;
        this.writeDurability = b.writeDurability;
        this.touchDurability = b.touchDurability;
        this.operationTimeoutMillis = b.operationTimeoutMillis;
        this.failMode = b.failMode;
        this.serializer = b.serializer;
        this.maxSessionBytes = b.maxSessionBytes;
        this.createTable = b.createTable;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.hbaseSite = hbaseSite;
        b.zookeeperQuorum = zookeeperQuorum;
        b.table = table;
        b.indexTable = indexTable;
        b.keyScope = keyScope;
        b.regions = regions;
        b.maxLifetimeSeconds = maxLifetimeSeconds;
        b.touchIntervalSeconds = touchIntervalSeconds;
        b.lockingMode = lockingMode;
        b.writeDurability = writeDurability;
        b.touchDurability = touchDurability;
        b.operationTimeoutMillis = operationTimeoutMillis;
        b.failMode = failMode;
        b.serializer = serializer;
        b.maxSessionBytes = maxSessionBytes;
        b.createTable = createTable;
        return b;
    }

    /** Path of an {@code hbase-site.xml} to read the connection settings from. */
    public Optional<Path> hbaseSite() {
        return Optional.ofNullable(hbaseSite);
    }

    /** ZooKeeper hosts, {@code host[:port],...}; overrides the quorum of {@link #hbaseSite()}. */
    public Optional<String> zookeeperQuorum() {
        return Optional.ofNullable(zookeeperQuorum);
    }

    /** The sessions table, optionally {@code namespace:name}. */
    public String table() {
        return table;
    }

    /** The principal index table ({@code user_sessions}), optionally {@code namespace:name}. */
    public String indexTable() {
        return indexTable;
    }

    public String keyScope() {
        return keyScope;
    }

    /** Pre-split regions of a table created by the store. */
    public int regions() {
        return regions;
    }

    /** The family TTL: no session outlives this, however active. */
    public long maxLifetimeSeconds() {
        return maxLifetimeSeconds;
    }

    /** An otherwise unchanged session is rewritten (touched) at most once per this interval. */
    public long touchIntervalSeconds() {
        return touchIntervalSeconds;
    }

    public LockingMode lockingMode() {
        return lockingMode;
    }

    /** Durability of attribute writes; create, invalidate, id and principal changes always use SYNC_WAL. */
    public WriteDurability writeDurability() {
        return writeDurability;
    }

    /** Durability of touches (access-time-only writes). */
    public WriteDurability touchDurability() {
        return touchDurability;
    }

    /** Bound on every HBase operation, retries included. */
    public long operationTimeoutMillis() {
        return operationTimeoutMillis;
    }

    /**
     * Bound on the start-up steps (connecting, creating pre-split tables), which take seconds on a
     * cold or busy cluster: they are not requests, so they get at least a minute.
     */
    long startUpTimeoutMillis() {
        return Math.max(operationTimeoutMillis, MIN_START_UP_TIMEOUT_MILLIS);
    }

    public FailMode failMode() {
        return failMode;
    }

    public SerializerKind serializer() {
        return serializer;
    }

    /** Largest serialized session a save accepts. */
    public long maxSessionBytes() {
        return maxSessionBytes;
    }

    /** Create missing tables at start (otherwise a missing table is a start-up error). */
    public boolean createTable() {
        return createTable;
    }

    /** The settings by name, as they would be written in configuration (unset optional ones omitted). */
    public Map<String, String> asNamedValues() {
        Map<String, String> values = new LinkedHashMap<>();
        hbaseSite().ifPresent(path -> values.put("hbaseSite", path.toString()));
        zookeeperQuorum().ifPresent(quorum -> values.put("zookeeperQuorum", quorum));
        values.put("table", table);
        values.put("indexTable", indexTable);
        values.put("keyScope", keyScope);
        values.put("regions", Integer.toString(regions));
        values.put("maxLifetimeSeconds", Long.toString(maxLifetimeSeconds));
        values.put("touchIntervalSeconds", Long.toString(touchIntervalSeconds));
        values.put("lockingMode", lockingMode.name().toLowerCase(Locale.ROOT));
        values.put("writeDurability", writeDurability.name());
        values.put("touchDurability", touchDurability.name());
        values.put("operationTimeoutMillis", Long.toString(operationTimeoutMillis));
        values.put("failMode", failMode.name().toLowerCase(Locale.ROOT));
        values.put("serializer", serializer.name().toLowerCase(Locale.ROOT));
        values.put("maxSessionBytes", Long.toString(maxSessionBytes));
        values.put("createTable", Boolean.toString(createTable));
        return values;
    }

    @Override
    public String toString() {
        return "StoreSettings" + asNamedValues();
    }

    public static final class Builder {
        private static final Map<String, BiConsumer<Builder, String>> BY_NAME = namedSetters();

        private Path hbaseSite;
        private String zookeeperQuorum;
        private String table = DEFAULT_TABLE;
        private String indexTable = DEFAULT_INDEX_TABLE;
        private String keyScope;
        private int regions = DEFAULT_REGIONS;
        private long maxLifetimeSeconds = DEFAULT_MAX_LIFETIME_SECONDS;
        private long touchIntervalSeconds = DEFAULT_TOUCH_INTERVAL_SECONDS;
        private LockingMode lockingMode = LockingMode.OPTIMISTIC;
        private WriteDurability writeDurability = WriteDurability.SYNC_WAL;
        private WriteDurability touchDurability = WriteDurability.ASYNC_WAL;
        private long operationTimeoutMillis = DEFAULT_OPERATION_TIMEOUT_MILLIS;
        private FailMode failMode = FailMode.ERROR;
        private SerializerKind serializer = SerializerKind.KRYO;
        private long maxSessionBytes = DEFAULT_MAX_SESSION_BYTES;
        private boolean createTable = true;

        private Builder() {
        }

        public Builder hbaseSite(Path path) {
            this.hbaseSite = path;
            return this;
        }

        public Builder zookeeperQuorum(String quorum) {
            this.zookeeperQuorum = blankToNull(quorum);
            return this;
        }

        public Builder table(String name) {
            this.table = name;
            return this;
        }

        public Builder indexTable(String name) {
            this.indexTable = name;
            return this;
        }

        public Builder keyScope(String scope) {
            this.keyScope = scope;
            return this;
        }

        public Builder regions(int count) {
            this.regions = count;
            return this;
        }

        public Builder maxLifetimeSeconds(long seconds) {
            this.maxLifetimeSeconds = seconds;
            return this;
        }

        public Builder touchIntervalSeconds(long seconds) {
            this.touchIntervalSeconds = seconds;
            return this;
        }

        public Builder lockingMode(LockingMode mode) {
            this.lockingMode = mode;
            return this;
        }

        public Builder writeDurability(WriteDurability durability) {
            this.writeDurability = durability;
            return this;
        }

        public Builder touchDurability(WriteDurability durability) {
            this.touchDurability = durability;
            return this;
        }

        public Builder operationTimeoutMillis(long millis) {
            this.operationTimeoutMillis = millis;
            return this;
        }

        public Builder failMode(FailMode mode) {
            this.failMode = mode;
            return this;
        }

        public Builder serializer(SerializerKind kind) {
            this.serializer = kind;
            return this;
        }

        public Builder maxSessionBytes(long bytes) {
            this.maxSessionBytes = bytes;
            return this;
        }

        public Builder createTable(boolean create) {
            this.createTable = create;
            return this;
        }

        /**
         * Sets a setting by its configuration name ({@code touchIntervalSeconds}, {@code lockingMode}, ...)
         * from its text form, as Tomcat attributes and Jetty properties give it.
         *
         * @throws StoreConfigurationException for an unknown name or a value that does not parse
         */
        public Builder set(String name, String value) {
            BiConsumer<Builder, String> setter = BY_NAME.get(name);
            if (setter == null) {
                throw new StoreConfigurationException("Unknown setting '" + name + "'. Known settings: "
                        + String.join(", ", BY_NAME.keySet()));
            }
            try {
                setter.accept(this, value == null ? null : value.trim());
            } catch (RuntimeException e) {
                throw new StoreConfigurationException("Setting " + name + "='" + value + "' is not valid: "
                        + e.getMessage(), e);
            }
            return this;
        }

        /** Checks every setting and says, for each that is wrong, how to fix it. */
        public StoreSettings build() {
            List<String> problems = new ArrayList<>();
            if (hbaseSite == null && zookeeperQuorum == null) {
                problems.add("set zookeeperQuorum (e.g. zk1,zk2,zk3 or 127.0.0.1:2181) or hbaseSite (path to hbase-site.xml)");
            }
            if (hbaseSite != null && !Files.isReadable(hbaseSite)) {
                problems.add("hbaseSite=" + hbaseSite + " is not a readable file");
            }
            if (blankToNull(keyScope) == null) {
                problems.add("keyScope must not be empty (the adapters default it to the context path)");
            }
            requireTableName("table", table, problems);
            requireTableName("indexTable", indexTable, problems);
            if (table != null && table.equals(indexTable)) {
                problems.add("table and indexTable must differ (both are '" + table + "')");
            }
            if (regions < 1 || regions > 256) {
                problems.add("regions=" + regions + " must be between 1 and 256 (splits are on the first key byte)");
            }
            if (maxLifetimeSeconds < 60 || maxLifetimeSeconds > Integer.MAX_VALUE) {
                problems.add("maxLifetimeSeconds=" + maxLifetimeSeconds + " must be between 60 and " + Integer.MAX_VALUE);
            }
            if (touchIntervalSeconds < 0 || touchIntervalSeconds >= maxLifetimeSeconds) {
                problems.add("touchIntervalSeconds=" + touchIntervalSeconds
                        + " must be at least 0 and below maxLifetimeSeconds=" + maxLifetimeSeconds);
            }
            if (operationTimeoutMillis < 100 || operationTimeoutMillis > 600_000) {
                problems.add("operationTimeoutMillis=" + operationTimeoutMillis + " must be between 100 and 600000");
            }
            if (maxSessionBytes < 1024 || maxSessionBytes > MAX_SESSION_BYTES_CEILING) {
                problems.add("maxSessionBytes=" + maxSessionBytes + " must be between 1024 and "
                        + MAX_SESSION_BYTES_CEILING + " (HBase refuses cells over 10 MB by default)");
            }
            requireNonNull("lockingMode", lockingMode, problems);
            requireNonNull("writeDurability", writeDurability, problems);
            requireNonNull("touchDurability", touchDurability, problems);
            requireNonNull("failMode", failMode, problems);
            requireNonNull("serializer", serializer, problems);
            if (!problems.isEmpty()) {
                throw new StoreConfigurationException("Invalid hbase-sessions configuration: " + String.join("; ", problems));
            }
            return new StoreSettings(this);
        }

        private static void requireTableName(String setting, String name, List<String> problems) {
            if (name == null || !name.matches("([A-Za-z0-9_]+:)?[A-Za-z0-9_][A-Za-z0-9_.-]*")) {
                problems.add(setting + "='" + name + "' is not a valid HBase table name ([namespace:]name of letters, digits, _ . -)");
            }
        }

        private static void requireNonNull(String setting, Object value, List<String> problems) {
            if (value == null) {
                problems.add(setting + " must be set");
            }
        }

        private static String blankToNull(String text) {
            return text == null || text.isBlank() ? null : text.trim();
        }

        private static <E extends Enum<E>> E parseEnum(Class<E> type, String text) {
            String normalized = text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equals(normalized)) {
                    return constant;
                }
            }
            List<String> allowed = new ArrayList<>();
            for (E constant : type.getEnumConstants()) {
                allowed.add(constant.name().toLowerCase(Locale.ROOT));
            }
            throw new IllegalArgumentException("expected one of " + allowed);
        }

        private static boolean parseBoolean(String text) {
            if ("true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text)) {
                return Boolean.parseBoolean(text);
            }
            throw new IllegalArgumentException("expected true or false");
        }

        private static Map<String, BiConsumer<Builder, String>> namedSetters() {
            Map<String, BiConsumer<Builder, String>> setters = new LinkedHashMap<>();
            setters.put("hbaseSite", (b, v) -> b.hbaseSite(blankToNull(v) == null ? null : Path.of(v)));
            setters.put("zookeeperQuorum", Builder::zookeeperQuorum);
            setters.put("table", Builder::table);
            setters.put("indexTable", Builder::indexTable);
            setters.put("keyScope", Builder::keyScope);
            setters.put("regions", (b, v) -> b.regions(Integer.parseInt(v)));
            setters.put("maxLifetimeSeconds", (b, v) -> b.maxLifetimeSeconds(Long.parseLong(v)));
            setters.put("touchIntervalSeconds", (b, v) -> b.touchIntervalSeconds(Long.parseLong(v)));
            setters.put("lockingMode", (b, v) -> b.lockingMode(parseEnum(LockingMode.class, v)));
            setters.put("writeDurability", (b, v) -> b.writeDurability(parseDurability(v)));
            setters.put("touchDurability", (b, v) -> b.touchDurability(parseDurability(v)));
            setters.put("operationTimeoutMillis", (b, v) -> b.operationTimeoutMillis(Long.parseLong(v)));
            setters.put("failMode", (b, v) -> b.failMode(parseEnum(FailMode.class, v)));
            setters.put("serializer", (b, v) -> b.serializer(parseEnum(SerializerKind.class, v)));
            setters.put("maxSessionBytes", (b, v) -> b.maxSessionBytes(Long.parseLong(v)));
            setters.put("createTable", (b, v) -> b.createTable(parseBoolean(v)));
            return Collections.unmodifiableMap(setters);
        }

        private static WriteDurability parseDurability(String text) {
            if ("SKIP_WAL".equalsIgnoreCase(text.trim())) {
                throw new IllegalArgumentException("SKIP_WAL is not allowed: it loses acknowledged session writes "
                        + "when a region server crashes; use ASYNC_WAL for cheap writes");
            }
            return parseEnum(WriteDurability.class, text);
        }
    }

    /** Every configuration name, in documentation order. */
    public static List<String> settingNames() {
        return List.copyOf(Builder.BY_NAME.keySet());
    }
}
