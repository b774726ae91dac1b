package io.hbasesessions.store;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanParameterInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.ReflectionException;

/**
 * A store as JMX shows it, the same in every container: one read-only attribute per
 * {@link StoreCounter} and per {@link StoreLatencies} statistic, the settings in force, and the operations
 * {@code revokeAll(user)} and {@code checkHealth()} (the store's {@link SessionStore#checkHealth()}: "healthy (12 ms)"
 * or "unhealthy: why"). Health is an operation, not an attribute, because it asks HBase: tools that read every
 * attribute (consoles, exporters, the test web application's counters page) must not wait up to
 * {@code operationTimeoutMillis} for it while HBase is down. Registered
 * as {@code io.hbasesessions:type=SessionStore,container=...,context=...}.
 */
public final class StoreMBean implements DynamicMBean {

    private static final String DOMAIN = "io.hbasesessions";
    private static final String SETTINGS = "settings";
    private static final String KEY_SCOPE = "keyScope";
    private static final String REVOKE_ALL = "revokeAll";
    private static final String CHECK_HEALTH = "checkHealth";

    private final SessionStore store;
    private final String settings;

    private StoreMBean(SessionStore store, StoreSettings settings) {
        this.store = store;
        this.settings = settings.toString();
    }

    /** A registration, undone by {@link #close()} when the web application stops. */
    public static final class Registration implements AutoCloseable {
        private final ObjectName name;

        private Registration(ObjectName name) {
            this.name = name;
        }

        public ObjectName name() {
            return name;
        }

        @Override
        public void close() {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                // Already gone: nothing to undo.
            }
        }
    }

    /**
     * Registers the store of one web application in the platform MBean server.
     *
     * @param container the container's name ({@code Tomcat}, {@code Jetty}, with its engine or server name
     *     when a JVM runs several)
     * @param context the web application's context (path, host)
     * @throws StoreConfigurationException if the MBean server refuses it (the name is taken)
     */
    public static Registration register(SessionStore store, StoreSettings settings, String container, String context) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        String base = DOMAIN + ":type=SessionStore,container=" + ObjectName.quote(container) + ",context="
                + ObjectName.quote(context);
        try {
            for (int instance = 1; ; instance++) {
                // Several containers of one kind in one JVM (embedded, tests) may serve the same context.
                ObjectName name = new ObjectName(instance == 1 ? base : base + ",instance=" + instance);
                try {
                    server.registerMBean(new StoreMBean(store, settings), name);
                    return new Registration(name);
                } catch (InstanceAlreadyExistsException taken) {
                    // Try the next instance number.
                }
            }
        } catch (JMException e) {
            throw new StoreConfigurationException("Cannot register the session store in JMX: " + e.getMessage(), e);
        }
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        return valueOf(attribute, store.counters(), store.latencies());
    }

    /** One attribute from snapshots taken once per call, so that a read of many attributes copies them once. */
    private Object valueOf(String attribute, StoreCounters counters, StoreLatencies latencies)
            throws AttributeNotFoundException {
        if (attribute.equals(SETTINGS)) {
            return settings;
        }
        if (attribute.equals(KEY_SCOPE)) {
            return store.keyScope();
        }
        for (StoreCounter counter : StoreCounter.values()) {
            if (counter.counterName().equals(attribute)) {
                return counters.get(counter);
            }
        }
        Number latency = latencies.byAttributeName().get(attribute);
        if (latency != null) {
            return latency;
        }
        throw new AttributeNotFoundException(attribute);
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException(attribute.getName() + " is read-only");
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList values = new AttributeList();
        StoreCounters counters = store.counters();
        StoreLatencies latencies = store.latencies();
        for (String attribute : attributes) {
            try {
                values.add(new Attribute(attribute, valueOf(attribute, counters, latencies)));
            } catch (AttributeNotFoundException e) {
                // JMX leaves unknown names out of the list.
            }
        }
        return values;
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList();
    }

    @Override
    public Object invoke(String operation, Object[] params, String[] signature) throws ReflectionException {
        if (REVOKE_ALL.equals(operation) && params != null && params.length == 1 && params[0] instanceof String user) {
            return store.revokeAll(user);
        }
        if (CHECK_HEALTH.equals(operation) && (params == null || params.length == 0)) {
            return store.checkHealth().toString();
        }
        throw new ReflectionException(new NoSuchMethodException(operation));
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        List<MBeanAttributeInfo> attributes = new ArrayList<>();
        attributes.add(new MBeanAttributeInfo(KEY_SCOPE, String.class.getName(), "The key scope", true, false, false));
        attributes.add(new MBeanAttributeInfo(SETTINGS, String.class.getName(), "The settings in force", true, false,
                false));
        for (StoreCounter counter : StoreCounter.values()) {
            attributes.add(new MBeanAttributeInfo(counter.counterName(), long.class.getName(), counter.description(),
                    true, false, false));
        }
        store.latencies().byAttributeName().forEach((name, value) -> attributes.add(new MBeanAttributeInfo(name,
                value.getClass().getName(), "Latency of calls that completed since the store opened", true, false,
                false)));
        MBeanOperationInfo revokeAll = new MBeanOperationInfo(REVOKE_ALL,
                "Deletes every session of a user in every key scope (log out everywhere); returns how many",
                new MBeanParameterInfo[] {new MBeanParameterInfo("user", String.class.getName(), "The user name")},
                int.class.getName(), MBeanOperationInfo.ACTION);
        MBeanOperationInfo checkHealth = new MBeanOperationInfo(CHECK_HEALTH, "Checks that HBase answers within "
                + "operationTimeoutMillis and the tables have the schema the store needs; returns the outcome and why",
                new MBeanParameterInfo[0], String.class.getName(), MBeanOperationInfo.INFO);
        return new MBeanInfo(StoreMBean.class.getName(), "HBase session store",
                attributes.toArray(MBeanAttributeInfo[]::new), null, new MBeanOperationInfo[] {revokeAll, checkHealth},
                null);
    }
}
