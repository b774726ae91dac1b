package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Configuration is checked once, at start, with messages that say how to fix it. */
class StoreSettingsTest {

    private static StoreSettings.Builder minimal() {
        return StoreSettings.builder().zookeeperQuorum("127.0.0.1:2181").keyScope("/shop");
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        Map<String, String> values = minimal().build().asNamedValues();
        assertEquals("sessions", values.get("table"));
        assertEquals("user_sessions", values.get("indexTable"));
        assertEquals("16", values.get("regions"));
        assertEquals("604800", values.get("maxLifetimeSeconds"));
        assertEquals("60", values.get("touchIntervalSeconds"));
        assertEquals("optimistic", values.get("lockingMode"));
        assertEquals("SYNC_WAL", values.get("writeDurability"));
        assertEquals("ASYNC_WAL", values.get("touchDurability"));
        assertEquals("5000", values.get("operationTimeoutMillis"));
        assertEquals("error", values.get("failMode"));
        assertEquals("kryo", values.get("serializer"));
        assertEquals("1048576", values.get("maxSessionBytes"));
        assertEquals("true", values.get("createTable"));
    }

    @Test
    void everySettingNameCanBeSetFromText() {
        StoreSettings.Builder builder = StoreSettings.builder();
        Map<String, String> text = Map.ofEntries(Map.entry("zookeeperQuorum", "zk1,zk2:2181"),
                Map.entry("table", "web:sessions"), Map.entry("indexTable", "web:user_sessions"),
                Map.entry("keyScope", "shop"), Map.entry("regions", "8"), Map.entry("maxLifetimeSeconds", "86400"),
                Map.entry("touchIntervalSeconds", "30"), Map.entry("lockingMode", "pessimistic"),
                Map.entry("writeDurability", "async_wal"), Map.entry("touchDurability", "SYNC_WAL"),
                Map.entry("operationTimeoutMillis", "2000"), Map.entry("failMode", "new_session"),
                Map.entry("serializer", "java"), Map.entry("maxSessionBytes", "65536"),
                Map.entry("createTable", "false"));
        text.forEach(builder::set);
        Map<String, String> values = builder.build().asNamedValues();
        assertEquals("pessimistic", values.get("lockingMode"));
        assertEquals("ASYNC_WAL", values.get("writeDurability"));
        assertEquals("new_session", values.get("failMode"));
        assertEquals("web:sessions", values.get("table"));
        assertEquals("false", values.get("createTable"));
        assertEquals(StoreSettings.settingNames().size() - 1, text.size(), "every name but hbaseSite was set");
    }

    @Test
    void unknownNameListsTheKnownOnes() {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class,
                () -> minimal().set("zookeeperQuorom", "x"));
        assertTrue(e.getMessage().contains("zookeeperQuorum"), e.getMessage());
    }

    @Test
    void skipWalIsRefusedWithTheReason() {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class,
                () -> minimal().set("writeDurability", "SKIP_WAL"));
        assertTrue(e.getMessage().contains("SKIP_WAL is not allowed"), e.getMessage());
    }

    @Test
    void badValuesAreAllReportedAtOnce() {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, () -> StoreSettings.builder()
                .keyScope(" ").regions(0).maxSessionBytes(64L * 1024 * 1024).operationTimeoutMillis(5).build());
        String message = e.getMessage();
        for (String expected : new String[] {"zookeeperQuorum", "keyScope", "regions=0", "maxSessionBytes",
                "operationTimeoutMillis=5"}) {
            assertTrue(message.contains(expected), "missing " + expected + " in: " + message);
        }
    }

    @Test
    void unparsableNumberNamesTheSetting() {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class,
                () -> minimal().set("regions", "sixteen"));
        assertTrue(e.getMessage().startsWith("Setting regions='sixteen' is not valid"), e.getMessage());
    }

    @Test
    void unreadableHbaseSiteIsReported() {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class,
                () -> minimal().set("hbaseSite", "/nonexistent/hbase-site.xml").build());
        assertTrue(e.getMessage().contains("not a readable file"), e.getMessage());
    }
}
