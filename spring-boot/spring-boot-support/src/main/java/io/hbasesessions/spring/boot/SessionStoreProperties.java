package io.hbasesessions.spring.boot;

import io.hbasesessions.store.KeyScopes;
import io.hbasesessions.store.SessionIds;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreSettings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * The store settings of a Spring Boot application: each {@link Setting} is the property
 * {@code hbase.sessions.<its name in kebab case>} ({@code zookeeperQuorum} is
 * {@code hbase.sessions.zookeeper-quorum}), bound with Boot's relaxed rules, so
 * {@code HBASE_SESSIONS_ZOOKEEPERQUORUM} works too. A blank value leaves the default, as an unset
 * property in Jetty's ini file does. They are checked when the application starts, by the store's own
 * rules and messages, before any server exists: Tomcat would only log a manager that fails to start.
 */
public final class SessionStoreProperties {

    public static final String PREFIX = "hbase.sessions";
    /** {@code false} turns the starter off: the server keeps its own sessions. */
    public static final String ENABLED = PREFIX + ".enabled";
    /**
     * This node's route, which the embedded server appends to its session ids (Tomcat's {@code jvmRoute}, Jetty's
     * worker name) and a load balancer routes by: what {@code stickySessions} needs, different on every node.
     */
    public static final String ROUTE = PREFIX + ".route";
    /** Where Spring Security's {@code HttpSessionSecurityContextRepository} keeps the login. */
    static final String SPRING_SECURITY_CONTEXT = "SPRING_SECURITY_CONTEXT";
    static final String SPRING_SECURITY_CONTEXT_CLASS = "org.springframework.security.core.context.SecurityContext";

    private final Map<String, String> byName;
    private final Optional<String> route;

    private SessionStoreProperties(Map<String, String> byName, Optional<String> route) {
        this.byName = Collections.unmodifiableMap(byName);
        this.route = route;
    }

    /**
     * Binds and checks the settings; with Spring Security on the classpath, {@code principalAttribute}
     * defaults to its {@code SecurityContext}, so that its logins are indexed for "log out everywhere".
     *
     * @throws StoreConfigurationException for a property under {@code hbase.sessions} that is no setting, or a value
     *     the store refuses, with the store's explanation
     */
    public static SessionStoreProperties bind(Environment environment, ClassLoader classLoader) {
        refuseUnknownProperties(environment);
        Binder binder = Binder.get(environment);
        Map<String, String> values = new LinkedHashMap<>();
        for (Setting<?> setting : Setting.all()) {
            binder.bind(propertyName(setting), String.class)
                    .map(String::strip)
                    .ifBound(value -> {
                        if (!value.isEmpty()) {
                            values.put(setting.name(), value);
                        }
                    });
        }
        if (ClassUtils.isPresent(SPRING_SECURITY_CONTEXT_CLASS, classLoader)) {
            values.putIfAbsent(Setting.PRINCIPAL_ATTRIBUTE.name(), SPRING_SECURITY_CONTEXT);
        }
        Optional<String> route = Optional.ofNullable(binder.bind(ROUTE, String.class).map(String::strip).orElse(null))
                .filter(value -> !value.isEmpty());
        check(values, route);
        return new SessionStoreProperties(values, route);
    }

    /** The settings by the configuration names every adapter takes ({@code zookeeperQuorum}, ...). */
    public Map<String, String> byName() {
        return byName;
    }

    /** The route the embedded server gives this node ({@link #ROUTE}), if one is set. */
    public Optional<String> route() {
        return route;
    }

    /** {@code hbase.sessions.zookeeper-quorum} for {@code zookeeperQuorum}. */
    public static String propertyName(Setting<?> setting) {
        return PREFIX + "." + kebabCase(setting.name());
    }

    static String kebabCase(String camelCase) {
        StringBuilder kebab = new StringBuilder();
        for (char c : camelCase.toCharArray()) {
            if (Character.isUpperCase(c)) {
                kebab.append('-').append(Character.toLowerCase(c));
            } else {
                kebab.append(c);
            }
        }
        return kebab.toString();
    }

    /** The key scope is the context's; a stand-in lets every other rule be checked before it is known. */
    private static void check(Map<String, String> values, Optional<String> route) {
        try {
            StoreSettings.Builder builder = StoreSettings.builder();
            values.forEach(builder::set);
            StoreSettings settings = builder.defaultKeyScope(KeyScopes.defaultFor(Optional.empty(), "")).build();
            if (settings.get(Setting.STICKY_SESSIONS) && route.isEmpty()) {
                throw new StoreConfigurationException("stickySessions needs " + ROUTE + ": this node's route, which the "
                        + "load balancer routes by, different on every node (e.g. node1)");
            }
            if (route.isPresent() && !SessionIds.isRoute(route.get())) {
                throw new StoreConfigurationException(ROUTE + "='" + route.get() + "' is not a route: 1 to 64 letters, "
                        + "digits, _ or -");
            }
        } catch (SessionStoreException e) {
            throw new StoreConfigurationException("HBase sessions (" + PREFIX + ".*, each setting in kebab case: "
                    + "zookeeperQuorum is " + propertyName(Setting.ZOOKEEPER_QUORUM) + "): " + e.getMessage(), e);
        }
    }

    /** A misspelt property would otherwise be ignored, and the application run with a default it did not mean. */
    private static void refuseUnknownProperties(Environment environment) {
        ConfigurationPropertyName prefix = ConfigurationPropertyName.of(PREFIX);
        Set<String> known = knownElements();
        Set<String> unknown = new TreeSet<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                iterable.stream()
                        .filter(prefix::isAncestorOf)
                        .filter(name -> !known.contains(name.getElement(2, ConfigurationPropertyName.Form.UNIFORM)))
                        .forEach(name -> unknown.add(name.toString()));
            }
        }
        if (!unknown.isEmpty()) {
            List<String> names = new ArrayList<>(List.of(ENABLED, ROUTE));
            Setting.all().forEach(setting -> names.add(propertyName(setting)));
            throw new StoreConfigurationException("Unknown HBase session propert" + (unknown.size() == 1 ? "y " : "ies ")
                    + String.join(", ", unknown) + ". Known properties: " + String.join(", ", names));
        }
    }

    /** The names in Boot's uniform form (lower case, no dashes), as a property's third element is compared. */
    private static Set<String> knownElements() {
        Set<String> known = Setting.all().stream()
                .map(setting -> setting.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.toSet());
        known.add("enabled");
        known.add("route");
        return known;
    }

    @Override
    public String toString() {
        return byName.toString();
    }
}
