package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.FailMode;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardEngine;
import org.apache.catalina.core.StandardHost;
import org.junit.jupiter.api.Test;

/** The {@code <Manager>}/{@code <Store>} attributes, by the store's setting names, checked when the context starts. */
class ConfiguredSettingsTest {

    /** The same default as Jetty's: the context path, plus the host only when it is not the engine's default. */
    @Test
    void theKeyScopeDefaultsToTheContextPathAndANonDefaultHost() throws LifecycleException {
        assertEquals("/app", withQuorum().resolve(context("localhost", "/app"), null).get(Setting.KEY_SCOPE));
        assertEquals("/", withQuorum().resolve(context("localhost", ""), null).get(Setting.KEY_SCOPE));
        assertEquals("/app@shop.example.com",
                withQuorum().resolve(context("shop.example.com", "/app"), null).get(Setting.KEY_SCOPE));
    }

    @Test
    void settingsAreAppliedByTheirSharedNames() throws LifecycleException {
        ConfiguredSettings configured = withQuorum();
        assertTrue(configured.set("keyScope", "shared-shop"));
        assertTrue(configured.set("failMode", "new_session"));
        assertTrue(configured.set("touchIntervalSeconds", "30"));
        StoreSettings settings = configured.resolve(context("localhost", "/app"), null);
        assertEquals("shared-shop", settings.get(Setting.KEY_SCOPE));
        assertEquals(FailMode.NEW_SESSION, settings.get(Setting.FAIL_MODE));
        assertEquals(30, settings.get(Setting.TOUCH_INTERVAL_SECONDS));
    }

    @Test
    void aWrongSettingFailsTheStartWithTheReason() {
        ConfiguredSettings configured = withQuorum();
        configured.set("failMode", "maybe");
        LifecycleException failure = assertThrows(LifecycleException.class,
                () -> configured.resolve(context("localhost", "/app"), null));
        assertTrue(failure.getMessage().contains("[/app]"), failure.getMessage());
        assertTrue(failure.getMessage().contains("failMode='maybe'"), failure.getMessage());
    }

    /** Tomcat only warns about an attribute nobody takes; the store refuses to start with a misspelt setting. */
    @Test
    void anUnknownAttributeIsRefusedByTomcatAndFailsTheStart() {
        ConfiguredSettings configured = withQuorum();
        assertFalse(configured.set("zookeeperQuroum", "zk"));
        LifecycleException failure = assertThrows(LifecycleException.class,
                () -> configured.resolve(context("localhost", "/app"), null));
        assertTrue(failure.getMessage().contains("Unknown setting 'zookeeperQuroum'"), failure.getMessage());
    }

    /** Tomcat's own filter of what it distributes is the filter of what is read back, unless one is configured. */
    @Test
    void theAttributeClassFilterDefaultsToTomcatsValueClassNameFilter() throws LifecycleException {
        String tomcatFilter = "java\\.lang\\.(?:Boolean|Integer|Long|Number|String)";
        assertEquals(tomcatFilter, withQuorum().resolve(context("localhost", "/app"), tomcatFilter)
                .get(Setting.ATTRIBUTE_CLASS_FILTER).pattern());
        assertTrue(withQuorum().resolve(context("localhost", "/app"), null).find(Setting.ATTRIBUTE_CLASS_FILTER).isEmpty());
        ConfiguredSettings configured = withQuorum();
        configured.set("attributeClassFilter", "com\\.shop\\..*");
        assertEquals("com\\.shop\\..*", configured.resolve(context("localhost", "/app"), tomcatFilter)
                .get(Setting.ATTRIBUTE_CLASS_FILTER).pattern());
    }

    @Test
    void aMissingQuorumIsExplained() {
        LifecycleException failure = assertThrows(LifecycleException.class,
                () -> new ConfiguredSettings().resolve(context("localhost", "/app"), null));
        assertTrue(failure.getMessage().contains("zookeeperQuorum"), failure.getMessage());
    }

    private static ConfiguredSettings withQuorum() {
        ConfiguredSettings configured = new ConfiguredSettings();
        configured.set("zookeeperQuorum", "127.0.0.1:2181");
        return configured;
    }

    private static Context context(String hostName, String path) {
        StandardEngine engine = new StandardEngine();
        engine.setDefaultHost("localhost");
        StandardHost host = new StandardHost();
        host.setName(hostName);
        host.setParent(engine);
        StandardContext context = new StandardContext();
        context.setPath(path);
        context.setParent(host);
        return context;
    }
}
