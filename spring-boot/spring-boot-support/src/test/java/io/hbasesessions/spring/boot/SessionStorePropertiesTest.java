package io.hbasesessions.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/** {@code hbase.sessions.*} as Boot binds them: names, relaxed forms, defaults, and the store's refusals. */
class SessionStorePropertiesTest {

    private static final String QUORUM = "hbase.sessions.zookeeper-quorum";
    private static final ClassLoader WITHOUT_SPRING_SECURITY = new FilteredClassLoader("org.springframework.security");

    @Test
    void everySettingIsBoundFromItsNameInKebabCase() {
        Map<String, Object> properties = new HashMap<>();
        properties.put(QUORUM, "zk1:2181,zk2:2181");
        properties.put("hbase.sessions.max-lifetime-seconds", "3600");
        properties.put("hbase.sessions.locking-mode", "pessimistic");
        properties.put("hbase.sessions.attribute-class-filter", "com\\.example\\..*");

        Map<String, String> bound = bind(properties, WITHOUT_SPRING_SECURITY).byName();

        assertEquals(Map.of("zookeeperQuorum", "zk1:2181,zk2:2181", "maxLifetimeSeconds", "3600", "lockingMode",
                "pessimistic", "attributeClassFilter", "com\\.example\\..*"), bound);
        for (Setting<?> setting : Setting.all()) {
            String property = SessionStoreProperties.propertyName(setting);
            assertTrue(property.matches("hbase\\.sessions\\.[a-z0-9]+(-[a-z0-9]+)*"), property);
            assertEquals(setting.name().toLowerCase(), property.substring("hbase.sessions.".length()).replace("-", ""));
        }
    }

    @Test
    void camelCaseAndEnvironmentVariablesBindToo() {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application", Map.of("hbase.sessions.keyScope", "shop")));
        environment.getPropertySources().replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                        Map.of("HBASE_SESSIONS_ZOOKEEPERQUORUM", "zk:2181", "HBASE_SESSIONS_TOUCHINTERVALSECONDS", "30")));

        Map<String, String> bound = SessionStoreProperties.bind(environment, WITHOUT_SPRING_SECURITY).byName();

        assertEquals("zk:2181", bound.get("zookeeperQuorum"));
        assertEquals("30", bound.get("touchIntervalSeconds"));
        assertEquals("shop", bound.get("keyScope"));
    }

    @Test
    void aBlankValueKeepsTheDefault() {
        Map<String, String> bound = bind(Map.of(QUORUM, "zk:2181", "hbase.sessions.table", "  "),
                WITHOUT_SPRING_SECURITY).byName();

        assertFalse(bound.containsKey("table"), bound.toString());
    }

    @Test
    void aMisspeltPropertyIsRefusedByNameWithTheKnownOnes() {
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class,
                () -> bind(Map.of(QUORUM, "zk:2181", "hbase.sessions.zookeeper-qourum", "zk:2181"), WITHOUT_SPRING_SECURITY));

        assertTrue(refused.getMessage().startsWith("Unknown HBase session property hbase.sessions.zookeeper-qourum. "),
                refused.getMessage());
        assertTrue(refused.getMessage().contains(QUORUM), refused.getMessage());
        assertTrue(refused.getMessage().contains("hbase.sessions.enabled"), refused.getMessage());
    }

    @Test
    void aValueTheStoreRefusesFailsWithTheStoresMessage() {
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class,
                () -> bind(Map.of(QUORUM, "zk:2181", "hbase.sessions.regions", "0"), WITHOUT_SPRING_SECURITY));

        assertTrue(refused.getMessage().contains("regions"), refused.getMessage());
        assertTrue(refused.getMessage().startsWith("HBase sessions (hbase.sessions.*"), refused.getMessage());
    }

    @Test
    void withoutAClusterTheStartFails() {
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class,
                () -> bind(Map.of(), WITHOUT_SPRING_SECURITY));

        assertTrue(refused.getMessage().contains("zookeeperQuorum"), refused.getMessage());
    }

    @Test
    void withSpringSecurityItsSecurityContextIsTheIndexedUserUnlessTheApplicationNamesAnother() {
        ClassLoader withSpringSecurity = getClass().getClassLoader();

        assertEquals(SessionStoreProperties.SPRING_SECURITY_CONTEXT,
                bind(Map.of(QUORUM, "zk:2181"), withSpringSecurity).byName().get("principalAttribute"));
        assertEquals("user", bind(Map.of(QUORUM, "zk:2181", "hbase.sessions.principal-attribute", "user"),
                withSpringSecurity).byName().get("principalAttribute"));
        assertFalse(bind(Map.of(QUORUM, "zk:2181"), WITHOUT_SPRING_SECURITY).byName().containsKey("principalAttribute"));
    }

    @Test
    void stickySessionsTakeTheNodesRouteAndRefuseToStartWithoutOne() {
        SessionStoreProperties bound = bind(Map.of(QUORUM, "zk:2181", "hbase.sessions.sticky-sessions", "true",
                SessionStoreProperties.ROUTE, " node1 "), WITHOUT_SPRING_SECURITY);
        assertEquals("node1", bound.route().orElseThrow());
        assertEquals("true", bound.byName().get("stickySessions"));
        assertFalse(bound.byName().containsKey("route"), "the route is the server's, not a store setting");

        StoreConfigurationException withoutRoute = assertThrows(StoreConfigurationException.class,
                () -> bind(Map.of(QUORUM, "zk:2181", "hbase.sessions.sticky-sessions", "true"), WITHOUT_SPRING_SECURITY));
        assertTrue(withoutRoute.getMessage().contains(SessionStoreProperties.ROUTE), withoutRoute.getMessage());
        StoreConfigurationException notARoute = assertThrows(StoreConfigurationException.class,
                () -> bind(Map.of(QUORUM, "zk:2181", SessionStoreProperties.ROUTE, "node.1"), WITHOUT_SPRING_SECURITY));
        assertTrue(notARoute.getMessage().contains("is not a route"), notARoute.getMessage());
    }

    private static SessionStoreProperties bind(Map<String, ?> properties, ClassLoader classLoader) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("application", Map.copyOf(properties)));
        return SessionStoreProperties.bind(environment, classLoader);
    }
}
