package io.hbasesessions.store;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The values of every {@link Setting} a store is configured with, checked together when built, with
 * messages that say how to fix each wrong one. Read a value with {@link #get(Setting)}.
 */
public final class StoreSettings {

    /** Start-up steps (connecting, creating pre-split tables) take seconds on a cold or busy cluster. */
    private static final long MIN_START_UP_TIMEOUT_MILLIS = 60_000;

    private final Map<Setting<?>, Object> values;

    private StoreSettings(Map<Setting<?>, Object> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder builder = new Builder();
        builder.values.putAll(values);
        return builder;
    }

    /** The value set, or the setting's default; {@code null} for an optional setting left unset. */
    public <T> T get(Setting<T> setting) {
        Object value = values.get(setting);
        return value != null ? setting.type().cast(value) : setting.defaultValue().orElse(null);
    }

    /** As {@link #get}, for settings without a default. */
    public <T> Optional<T> find(Setting<T> setting) {
        return Optional.ofNullable(get(setting));
    }

    /**
     * Bound on the start-up steps, which are not requests: at least a minute, whatever
     * {@code operationTimeoutMillis} says.
     */
    long startUpTimeoutMillis() {
        return Math.max(get(Setting.OPERATION_TIMEOUT_MILLIS), MIN_START_UP_TIMEOUT_MILLIS);
    }

    /** The deadline of one store operation begun now: {@code operationTimeoutMillis}. */
    Deadline operationDeadline() {
        return Deadline.afterMillis(get(Setting.OPERATION_TIMEOUT_MILLIS));
    }

    /**
     * With {@code expiryEvents}: how often, at most, each node must sweep, in seconds. Half the event delay:
     * a session ends within a bucket (the other half) of its bucket's due time.
     */
    public int expirySweepPeriodSeconds() {
        return (int) Math.max(1, get(Setting.EXPIRY_EVENT_DELAY_SECONDS) / 2);
    }

    /** Every setting with a value, by name, as it would be written in configuration. */
    public Map<String, String> asNamedValues() {
        Map<String, String> named = new LinkedHashMap<>();
        for (Setting<?> setting : Setting.all()) {
            Object value = get(setting);
            if (value != null) {
                named.put(setting.name(), setting.format(value));
            }
        }
        return named;
    }

    @Override
    public String toString() {
        return "StoreSettings" + asNamedValues();
    }

    /**
     * Timeline reads without a secondary replica gain nothing, and HBase's client then logs a warning on
     * every load: a configuration error, found at start rather than in the first outage.
     */
    private static List<String> timelineReadProblems(StoreSettings settings) {
        List<String> problems = new ArrayList<>();
        if (settings.get(Setting.REGION_REPLICAS) < 2) {
            problems.add("timelineReads=true needs regionReplicas=2 or 3 (a secondary replica to read from), not "
                    + settings.get(Setting.REGION_REPLICAS));
        }
        if (settings.get(Setting.TIMELINE_READ_AFTER_MILLIS) >= settings.get(Setting.OPERATION_TIMEOUT_MILLIS)) {
            problems.add("timelineReadAfterMillis=" + settings.get(Setting.TIMELINE_READ_AFTER_MILLIS)
                    + " must be below operationTimeoutMillis=" + settings.get(Setting.OPERATION_TIMEOUT_MILLIS)
                    + ", or a load times out before a secondary is asked");
        }
        return problems;
    }

    public static final class Builder {
        private final Map<Setting<?>, Object> values = new LinkedHashMap<>();

        private Builder() {
        }

        /** Sets a value; {@code null} goes back to the default. */
        public <T> Builder set(Setting<T> setting, T value) {
            if (value == null) {
                values.remove(setting);
            } else {
                values.put(setting, value);
            }
            return this;
        }

        /**
         * Sets a setting by its configuration name from its text form, as Tomcat attributes and Jetty
         * properties give it. A null or blank value leaves the setting at its default.
         *
         * @throws StoreConfigurationException for an unknown name or a value that does not parse
         */
        public Builder set(String name, String text) {
            Setting<?> setting = Setting.named(name);
            if (text == null || text.isBlank()) {
                values.remove(setting);
                return this;
            }
            try {
                values.put(setting, setting.parse(text));
            } catch (IllegalArgumentException e) {
                throw new StoreConfigurationException("Setting " + name + "='" + text + "' is not valid: "
                        + e.getMessage());
            }
            return this;
        }

        /** Sets the key scope unless one was configured. */
        public Builder defaultKeyScope(String keyScope) {
            values.putIfAbsent(Setting.KEY_SCOPE, keyScope);
            return this;
        }

        /** Checks every setting together and says, for each that is wrong, how to fix it. */
        public StoreSettings build() {
            StoreSettings settings = new StoreSettings(values);
            List<String> problems = new ArrayList<>();
            Optional<Path> site = settings.find(Setting.HBASE_SITE);
            if (site.isEmpty() && settings.find(Setting.ZOOKEEPER_QUORUM).isEmpty()) {
                problems.add("set zookeeperQuorum (e.g. zk1,zk2,zk3 or 127.0.0.1:2181) or hbaseSite (path to hbase-site.xml)");
            }
            site.filter(path -> !Files.isReadable(path))
                    .ifPresent(path -> problems.add("hbaseSite=" + path + " is not a readable file"));
            if (settings.find(Setting.KEY_SCOPE).filter(scope -> !scope.isBlank()).isEmpty()) {
                problems.add("keyScope must not be empty (Tomcat and Jetty default it to the context path; set it for the "
                        + "Shiro DAO, e.g. /shop: applications with the same keyScope share sessions)");
            }
            if (settings.get(Setting.TABLE).equals(settings.get(Setting.INDEX_TABLE))) {
                problems.add("table and indexTable must differ (both are '" + settings.get(Setting.TABLE) + "')");
            }
            String expiryTable = settings.get(Setting.EXPIRY_TABLE);
            if (settings.get(Setting.EXPIRY_EVENTS)
                    && List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE)).contains(expiryTable)) {
                problems.add("expiryTable must differ from table and indexTable (it is '" + expiryTable + "')");
            }
            long maxLifetime = settings.get(Setting.MAX_LIFETIME_SECONDS);
            if (settings.get(Setting.TOUCH_INTERVAL_SECONDS) >= maxLifetime) {
                problems.add("touchIntervalSeconds=" + settings.get(Setting.TOUCH_INTERVAL_SECONDS)
                        + " must be below maxLifetimeSeconds=" + maxLifetime);
            }
            if (settings.get(Setting.STATE_PROTECTION) != StateProtection.NONE
                    && settings.find(Setting.STATE_KEY_FILE).isEmpty()) {
                problems.add("stateProtection=" + Setting.STATE_PROTECTION.format(settings.get(Setting.STATE_PROTECTION))
                        + " needs stateKeyFile (a file of base64 keys, one per line: openssl rand -base64 32 > keys)");
            }
            if (settings.get(Setting.TIMELINE_READS)) {
                timelineReadProblems(settings).forEach(problems::add);
            }
            if (settings.get(Setting.STICKY_SESSIONS)) {
                String changesTable = settings.get(Setting.CHANGES_TABLE);
                if (List.of(settings.get(Setting.TABLE), settings.get(Setting.INDEX_TABLE), expiryTable).contains(changesTable)) {
                    problems.add("changesTable must differ from table, indexTable and expiryTable (it is '" + changesTable + "')");
                }
                if (settings.get(Setting.LOCKING_MODE) == LockingMode.PESSIMISTIC) {
                    problems.add("stickySessions needs lockingMode=optimistic or none: a pessimistic load takes the "
                            + "session's lease in HBase, so no request could be served from a copy");
                }
            }
            if (!problems.isEmpty()) {
                throw new StoreConfigurationException("Invalid hbase-sessions configuration: " + String.join("; ", problems));
            }
            return settings;
        }
    }
}
