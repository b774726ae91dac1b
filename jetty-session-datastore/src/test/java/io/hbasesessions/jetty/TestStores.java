package io.hbasesessions.jetty;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** Store settings for the nodes of one test class, and a store of the same scope to look into HBase with. */
final class TestStores {

    private TestStores() {
    }

    /** Settings by configuration name, as the Jetty module would pass them. */
    static Map<String, String> settings(EmbeddedHBase hbase, TestNamespace namespace) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        settings.put("table", namespace.table("sessions"));
        settings.put("indexTable", namespace.table("user_sessions"));
        settings.put("regions", "1");
        settings.put("operationTimeoutMillis", "2000");
        return settings;
    }

    static Map<String, String> with(Map<String, String> settings, String name, String value) {
        Map<String, String> changed = new LinkedHashMap<>(settings);
        changed.put(name, value);
        return changed;
    }

    /** A store of the nodes' default scope (the context path), reading the same table. */
    static SessionStore inspector(Map<String, String> settings) {
        StoreSettings.Builder builder = StoreSettings.builder().keyScope(JettyNode.CONTEXT_PATH);
        settings.forEach(builder::set);
        return SessionStores.open(builder.build());
    }
}
