package io.hbasesessions.tomcat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.FailMode;
import io.hbasesessions.store.StoreSettings;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.core.StandardHost;
import org.junit.jupiter.api.Test;

class ConfiguredSettingsTest {

    @Test
    void keyScopeDefaultsToHostNameAndContextPath() throws LifecycleException {
        assertEquals("shop.example.com/app", withQuorum().resolve(context("shop.example.com", "/app")).keyScope());
        assertEquals("localhost/", withQuorum().resolve(context("localhost", "")).keyScope());
    }

    @Test
    void settingsAreAppliedByTheirSharedNames() throws LifecycleException {
        ConfiguredSettings configured = withQuorum();
        configured.put("keyScope", "shared-shop");
        configured.put("failMode", "new_session");
        configured.put("touchIntervalSeconds", "30");
        StoreSettings settings = configured.resolve(context("localhost", "/app"));
        assertEquals("shared-shop", settings.keyScope());
        assertEquals(FailMode.NEW_SESSION, settings.failMode());
        assertEquals(30, settings.touchIntervalSeconds());
    }

    @Test
    void aWrongSettingFailsTheStartWithTheReason() {
        ConfiguredSettings configured = withQuorum();
        configured.put("failMode", "maybe");
        LifecycleException failure = assertThrows(LifecycleException.class,
                () -> configured.resolve(context("localhost", "/app")));
        assertTrue(failure.getMessage().contains("[/app]"), failure.getMessage());
        assertTrue(failure.getMessage().contains("failMode='maybe'"), failure.getMessage());
    }

    @Test
    void aMissingQuorumIsExplained() {
        LifecycleException failure = assertThrows(LifecycleException.class,
                () -> new ConfiguredSettings().resolve(context("localhost", "/app")));
        assertTrue(failure.getMessage().contains("zookeeperQuorum"), failure.getMessage());
    }

    @Test
    void theRouteSuffixIsNotPartOfTheStoredId() {
        assertEquals("ABC123", SessionIds.raw("ABC123.node1"));
        assertEquals("ABC123", SessionIds.raw("ABC123"));
        assertEquals("", SessionIds.raw(".node1"));
    }

    private static ConfiguredSettings withQuorum() {
        ConfiguredSettings configured = new ConfiguredSettings();
        configured.put("zookeeperQuorum", "127.0.0.1:2181");
        return configured;
    }

    private static Context context(String hostName, String path) {
        StandardHost host = new StandardHost();
        host.setName(hostName);
        StandardContext context = new StandardContext();
        context.setPath(path);
        context.setParent(host);
        return context;
    }
}
