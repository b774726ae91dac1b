package io.hbasesessions.store;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One setting of the configuration vocabulary that Tomcat attributes, Jetty properties
 * ({@code jetty.session.hbase.NAME}) and the factories share: its name, type, default, allowed values
 * and meaning, defined here once. Everything else (parsing, range checks, the Jetty module's XML and
 * ini template, the table of docs/settings.md) is derived from these constants.
 *
 * @param <T> the type of the value
 */
public final class Setting<T> {

    private static final Map<String, Setting<?>> BY_NAME = new LinkedHashMap<>();

    public static final Setting<Path> HBASE_SITE = new Setting<>("hbaseSite", Path.class, null, "file path",
            "An `hbase-site.xml` to read the client settings from.", Path::of, Range.any());
    public static final Setting<String> ZOOKEEPER_QUORUM = new Setting<>("zookeeperQuorum", String.class, null,
            "`host[:port],...`", "ZooKeeper of the HBase cluster. This or `hbaseSite` is required.",
            Function.identity(), Range.any());
    public static final Setting<String> TABLE = new Setting<>("table", String.class, "sessions",
            "`[namespace:]name`", "The sessions table.", Function.identity(), Range.tableName());
    public static final Setting<String> INDEX_TABLE = new Setting<>("indexTable", String.class, "user_sessions",
            "`[namespace:]name`", "The user index for \"log out everywhere\".", Function.identity(), Range.tableName());
    public static final Setting<String> KEY_SCOPE = new Setting<>("keyScope", String.class, null, "text",
            "Applications with the same `keyScope` share sessions, on Tomcat and Jetty alike. Default: the context "
                    + "path (`/shop`), plus `@host` for a context of a virtual host other than the container's default.",
            Function.identity(), Range.any());
    public static final Setting<Integer> REGIONS = new Setting<>("regions", Integer.class, 16, "count, 1-256",
            "Pre-split regions of a table the store creates.", Integer::valueOf, Range.between(1, 256));
    public static final Setting<TableCompression> COMPRESSION = enumSetting("compression", TableCompression.class,
            TableCompression.NONE, "Block compression of the tables' family, set when the store creates a table and "
                    + "checked at start like the rest of the schema. Every codec but `none` and `gz` needs the master "
                    + "and region servers to load it (`hbase.io.compress.<name>.codec`; see docs/operations.md, "
                    + "Sizing).");
    public static final Setting<Long> MAX_LIFETIME_SECONDS = new Setting<>("maxLifetimeSeconds", Long.class,
            7L * 24 * 3600, "seconds, >= 60",
            "No session lives longer than this after its creation, however active (checked on every read; also "
                    + "the tables' TTL).", Long::valueOf, Range.between(60, Integer.MAX_VALUE));
    public static final Setting<Long> TOUCH_INTERVAL_SECONDS = new Setting<>("touchIntervalSeconds", Long.class, 60L,
            "seconds", "An unchanged session is rewritten (to slide its expiry) at most this often; never more than "
                    + "a tenth of its idle timeout.", Long::valueOf, Range.between(0, Integer.MAX_VALUE));
    public static final Setting<LockingMode> LOCKING_MODE = enumSetting("lockingMode", LockingMode.class,
            LockingMode.OPTIMISTIC, "How concurrent requests on one session are kept from losing updates (see "
                    + "docs/behaviour.md, Concurrency).");
    public static final Setting<Long> LEASE_TIMEOUT_SECONDS = new Setting<>("leaseTimeoutSeconds", Long.class, 30L,
            "seconds, 1-3600", "With `lockingMode=pessimistic`: a lease not given back (its node died) is free "
                    + "again after this long.", Long::valueOf, Range.between(1, 3600));
    public static final Setting<WriteDurability> WRITE_DURABILITY = new Setting<>("writeDurability",
            WriteDurability.class, WriteDurability.SYNC_WAL, "`USE_DEFAULT`, `ASYNC_WAL`, `SYNC_WAL`, `FSYNC_WAL`",
            "WAL durability of attribute writes. `SKIP_WAL` is refused.", Setting::parseDurability, Range.any());
    public static final Setting<WriteDurability> TOUCH_DURABILITY = new Setting<>("touchDurability",
            WriteDurability.class, WriteDurability.ASYNC_WAL, "as above",
            "WAL durability of touches (access-time-only writes).", Setting::parseDurability, Range.any());
    public static final Setting<Long> OPERATION_TIMEOUT_MILLIS = new Setting<>("operationTimeoutMillis", Long.class,
            5_000L, "milliseconds, 100-600000", "Bound on every HBase operation, retries included.", Long::valueOf,
            Range.between(100, 600_000));
    public static final Setting<FailMode> FAIL_MODE = enumSetting("failMode", FailMode.class, FailMode.ERROR,
            "What a request gets when HBase is unavailable: HTTP 503, or (for a request whose session cannot be "
                    + "read) a fresh session that is never stored. A save that fails always answers 503.");
    public static final Setting<SerializerKind> SERIALIZER = enumSetting("serializer", SerializerKind.class,
            SerializerKind.KRYO, "How attribute values are serialized. Both are always readable.");
    public static final Setting<Pattern> ATTRIBUTE_CLASS_FILTER = new Setting<>("attributeClassFilter", Pattern.class,
            null, "regular expression", "Only attribute values whose class name matches it wholly are stored and read "
                    + "back; a class inside a value must match it too, or be one of the JDK's value classes (see "
                    + "docs/security.md). Default: none (on Tomcat: the Manager's "
                    + "`sessionAttributeValueClassNameFilter`).", Setting::parsePattern, Range.any());
    public static final Setting<ClassNames> ALLOWED_ATTRIBUTE_CLASSES = new Setting<>("allowedAttributeClasses",
            ClassNames.class, null, "class and package names (`com.shop.Money`, `com.shop.model.`), comma-separated",
            "Classes attribute values may be made of besides the web application's own and the JDK's value and "
                    + "collection types: classes of a library on the server's class path, or other JDK classes. Each "
                    + "must still be `Serializable`; the classes hbase-sessions ships and the deny list are refused "
                    + "whatever this says (see docs/security.md).", ClassNames::parse, Range.any());
    public static final Setting<Long> MAX_SESSION_BYTES = new Setting<>("maxSessionBytes", Long.class, 1_048_576L,
            "bytes, 1024-8388608", "Largest serialized session a save accepts; a larger one fails that request "
                    + "(HTTP 500) and leaves the stored session as it was.", Long::valueOf,
            Range.between(1024, 8L * 1024 * 1024));
    public static final Setting<Boolean> CREATE_TABLE = new Setting<>("createTable", Boolean.class, true,
            "`true`, `false`", "Create missing tables at start; with `false` a missing table stops the start with the "
                    + "`create` command to run. Existing tables are checked against the schema either way.",
            Setting::parseBoolean, Range.any());
    public static final Setting<String> PRINCIPAL_ATTRIBUTE = new Setting<>("principalAttribute", String.class, null,
            "attribute names", "For applications that log users in themselves: the session attribute naming the user "
                    + "to index for \"log out everywhere\" (a `String`, a `java.security.Principal`, or Spring "
                    + "Security's `SecurityContext`, e.g. `SPRING_SECURITY_CONTEXT`, or Apache Shiro's `PrincipalCollection`, "
                    + "by its primary principal); several names, comma-separated: the first that names a user. Default: the "
                    + "container's login (the Shiro DAO: Shiro's principals; Spring Session: its principal name "
                    + "attribute, then `SPRING_SECURITY_CONTEXT`).",
            Function.identity(), Range.any());
    public static final Setting<StateProtection> STATE_PROTECTION = enumSetting("stateProtection",
            StateProtection.class, StateProtection.NONE, "Authenticates every state cell with the keys of "
                    + "`stateKeyFile`, checked before anything in it is decoded (`hmac`: HMAC-SHA256; `encrypt`: "
                    + "AES-GCM, also unreadable in HBase). A cell that fails is treated as absent and counted as "
                    + "`forgedStates`. Turning it on ends the sessions stored without it (see docs/security.md).");
    public static final Setting<Path> STATE_KEY_FILE = new Setting<>("stateKeyFile", Path.class, null, "file path",
            "Keys for `stateProtection`, one per line, each the base64 of at least 32 random bytes (`openssl rand "
                    + "-base64 32`): the first protects new writes, every one is accepted on read, so keys rotate "
                    + "without logging anyone out.", Path::of, Range.any());

    public static final Setting<Integer> REGION_REPLICAS = new Setting<>("regionReplicas", Integer.class, 1,
            "count, 1-3", "`REGION_REPLICATION` of the sessions table the store creates (an existing table's differing count is "
                    + "logged, and refused only for `timelineReads` without a secondary): "
                    + "replicas beyond the first are read-only copies on other region servers for `timelineReads`. They "
                    + "follow the primary only where the region servers run region replica replication (see Region "
                    + "replicas and timeline reads).", Integer::valueOf, Range.between(1, 3));
    public static final Setting<Boolean> TIMELINE_READS = new Setting<>("timelineReads", Boolean.class, false,
            "`true`, `false`", "A load the primary replica does not answer within `timelineReadAfterMillis` may be "
                    + "answered by a secondary, possibly stale; writes, and every read that decides one, still need the "
                    + "primary. Needs `regionReplicas` >= 2.", Setting::parseBoolean, Range.any());
    public static final Setting<Long> TIMELINE_READ_AFTER_MILLIS = new Setting<>("timelineReadAfterMillis", Long.class,
            50L, "milliseconds, 1-60000", "With `timelineReads`: how long a load waits for the primary before asking "
                    + "the secondaries too (the client's `hbase.client.primaryCallTimeout.get`). Below "
                    + "`operationTimeoutMillis`.", Long::valueOf, Range.between(1, 60_000));

    public static final Setting<Boolean> COALESCE_CALLS = new Setting<>("coalesceCalls", Boolean.class, true,
            "`true`, `false`", "The Gets of concurrent requests bound for one region server, and their writes that wait "
                    + "for no WAL sync (touches), travel together in one multi-action while an earlier one is in "
                    + "flight (a call to an idle server goes at once); `false`: each on its own.", Setting::parseBoolean, Range.any());

    public static final Setting<Boolean> EXPIRY_EVENTS = new Setting<>("expiryEvents", Boolean.class, false,
            "`true`, `false`", "Fire `sessionDestroyed` and `valueUnbound` when a session idles out or reaches "
                    + "`maxLifetimeSeconds`, once across the fleet, on a node serving its key scope (see "
                    + "docs/behaviour.md, Expiry and sessionDestroyed). Writes an entry in `expiryTable` when a write moves a session's expiry into "
                    + "another time bucket; `false`: nothing is written or swept.", Setting::parseBoolean, Range.any());
    public static final Setting<Long> EXPIRY_EVENT_DELAY_SECONDS = new Setting<>("expiryEventDelaySeconds", Long.class,
            60L, "seconds, 2-3600", "With `expiryEvents`: the events of a session fire within about this long after "
                    + "it expires (half of it is the width of a time bucket, half the sweep period).", Long::valueOf,
            Range.between(2, 3600));
    public static final Setting<String> EXPIRY_TABLE = new Setting<>("expiryTable", String.class, "session_expiry",
            "`[namespace:]name`", "With `expiryEvents`: the expiry index, one row per time bucket, key scope and salt.",
            Function.identity(), Range.tableName());

    public static final Setting<Boolean> STICKY_SESSIONS = new Setting<>("stickySessions", Boolean.class, false,
            "`true`, `false`", "For a load balancer with session affinity by route (Tomcat's `jvmRoute`, Jetty's worker "
                    + "name; each node's must differ): a request whose id carries this node's route is served from the "
                    + "node's copy of its session, kept current by `changesTable`, instead of a read from HBase; writes "
                    + "still reach HBase before the response. Every node of a key scope must run a version that knows it "
                    + "(see docs/behaviour.md, Sticky sessions).", Setting::parseBoolean, Range.any());
    public static final Setting<Long> STICKY_STALENESS_MILLIS = new Setting<>("stickyStalenessMillis", Long.class,
            1_000L, "milliseconds, 200-60000", "With `stickySessions`: a change made on another node (a write, "
                    + "invalidation, revocation, id change) reaches this node's copies within this long; a node that "
                    + "could not read `changesTable` for this long reads from HBase until it can.", Long::valueOf,
            Range.between(200, 60_000));
    public static final Setting<Long> STICKY_COPIES_MAX_BYTES = new Setting<>("stickyCopiesMaxBytes", Long.class,
            64L * 1024 * 1024, "bytes, 0-68719476736", "With `stickySessions`: the serialized sessions this node keeps, "
                    + "least recently used first out; a session not kept is read from HBase.", Long::valueOf,
            Range.between(0, 64L * 1024 * 1024 * 1024));
    public static final Setting<String> CHANGES_TABLE = new Setting<>("changesTable", String.class, "session_changes",
            "`[namespace:]name`", "With `stickySessions`: one row per key scope naming the sessions changed in the last "
                    + "seconds by a node that was not their home, which every node reads a few times a second.",
            Function.identity(), Range.tableName());

    private final String name;
    private final Class<T> type;
    private final T defaultValue;
    private final String allowedValues;
    private final String description;
    private final Function<String, T> parser;
    private final Range range;

    private Setting(String name, Class<T> type, T defaultValue, String allowedValues, String description,
            Function<String, T> parser, Range range) {
        this.name = name;
        this.type = type;
        this.defaultValue = defaultValue;
        this.allowedValues = allowedValues;
        this.description = description;
        this.parser = parser;
        this.range = range;
        BY_NAME.put(name, this);
    }

    private static <E extends Enum<E>> Setting<E> enumSetting(String name, Class<E> type, E defaultValue,
            String description) {
        List<String> values = new ArrayList<>();
        for (E constant : type.getEnumConstants()) {
            values.add("`" + constant.name().toLowerCase(Locale.ROOT) + "`");
        }
        return new Setting<>(name, type, defaultValue, String.join(", ", values), description,
                text -> parseEnum(type, text), Range.any());
    }

    /** Every setting, in documentation order. */
    public static List<Setting<?>> all() {
        return List.copyOf(BY_NAME.values());
    }

    /** Whether {@code name} is a setting's name. */
    public static boolean isName(String name) {
        return BY_NAME.containsKey(name);
    }

    /** @throws StoreConfigurationException for a name that is not a setting, listing the known ones */
    public static Setting<?> named(String name) {
        Setting<?> setting = BY_NAME.get(name);
        if (setting == null) {
            throw new StoreConfigurationException("Unknown setting '" + name + "'. Known settings: "
                    + String.join(", ", BY_NAME.keySet()));
        }
        return setting;
    }

    /** The configuration name: the Tomcat attribute, the Jetty property suffix, the factory setting. */
    public String name() {
        return name;
    }

    public Class<T> type() {
        return type;
    }

    /** Empty when the setting has no fixed default (it is required, or derived from the context). */
    public Optional<T> defaultValue() {
        return Optional.ofNullable(defaultValue);
    }

    /** The default as written in configuration. */
    public String defaultText() {
        return defaultValue == null ? "" : format(defaultValue);
    }

    /** Unit or allowed values, as documented. */
    public String allowedValues() {
        return allowedValues;
    }

    public String description() {
        return description;
    }

    /** @throws IllegalArgumentException saying what is allowed, if {@code text} is not a valid value */
    T parse(String text) {
        T value;
        try {
            value = parser.apply(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a number (" + allowedValues + ")");
        }
        range.check(value);
        return value;
    }

    /** A value as it would be written in configuration. */
    String format(Object value) {
        return value instanceof Enum<?> constant && type != WriteDurability.class
                ? constant.name().toLowerCase(Locale.ROOT)
                : String.valueOf(value);
    }

    @Override
    public String toString() {
        return name;
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String text) {
        String normalized = text.toUpperCase(Locale.ROOT).replace('-', '_');
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

    private static WriteDurability parseDurability(String text) {
        if ("SKIP_WAL".equalsIgnoreCase(text)) {
            throw new IllegalArgumentException("SKIP_WAL is not allowed: it loses acknowledged session writes "
                    + "when a region server crashes; use ASYNC_WAL for cheap writes");
        }
        return parseEnum(WriteDurability.class, text);
    }

    private static Pattern parsePattern(String text) {
        try {
            return Pattern.compile(text);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("is not a regular expression: " + e.getDescription());
        }
    }

    private static boolean parseBoolean(String text) {
        if ("true".equalsIgnoreCase(text) || "false".equalsIgnoreCase(text)) {
            return Boolean.parseBoolean(text);
        }
        throw new IllegalArgumentException("expected true or false");
    }

    /** What a parsed value must satisfy beyond its type. */
    private interface Range {
        void check(Object value);

        static Range any() {
            return value -> { };
        }

        static Range between(long min, long max) {
            return value -> {
                long number = ((Number) value).longValue();
                if (number < min || number > max) {
                    throw new IllegalArgumentException("must be between " + min + " and " + max);
                }
            };
        }

        static Range tableName() {
            return value -> {
                if (!((String) value).matches("([A-Za-z0-9_]+:)?[A-Za-z0-9_][A-Za-z0-9_.-]*")) {
                    throw new IllegalArgumentException("is not a valid HBase table name ([namespace:]name of letters, "
                            + "digits, _ . -)");
                }
            };
        }
    }
}
