package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Settings are parsed by name, checked together, and every problem comes with how to fix it. */
class StoreSettingsTest {

    private static StoreSettings.Builder minimal() {
        return StoreSettings.builder().set("zookeeperQuorum", "zk1:2181").set("keyScope", "/shop");
    }

    @Test
    void defaultsComeFromTheSettingsThemselves() {
        StoreSettings settings = minimal().build();
        for (Setting<?> setting : Setting.all()) {
            setting.defaultValue().ifPresent(value -> assertEquals(value, settings.get(setting), setting.name()));
        }
        assertEquals(LockingMode.OPTIMISTIC, settings.get(Setting.LOCKING_MODE));
        assertEquals(60_000, settings.startUpTimeoutMillis(), "start-up gets at least a minute");
    }

    @Test
    void everySettingParsesFromItsTextForm() {
        StoreSettings settings = minimal().set("table", "ns:s").set("indexTable", "ns:u").set("regions", "4")
                .set("maxLifetimeSeconds", "3600").set("touchIntervalSeconds", "30").set("lockingMode", "pessimistic")
                .set("leaseTimeoutSeconds", "5").set("writeDurability", "fsync_wal").set("touchDurability", "SYNC_WAL")
                .set("operationTimeoutMillis", "2000").set("failMode", "new-session").set("serializer", "java")
                .set("maxSessionBytes", "2048").set("createTable", "FALSE").set("principalAttribute", "user")
                .set("attributeClassFilter", "com\\.shop\\..*")
                .set("allowedAttributeClasses", "com.shared.Money, com.shared.model.*").set("stateProtection", "encrypt")
                .set("stateKeyFile", "/etc/sessions/keys").set("regionReplicas", "2").set("timelineReads", "true")
                .set("timelineReadAfterMillis", "20").build();
        assertEquals(4, settings.get(Setting.REGIONS));
        assertEquals(LockingMode.PESSIMISTIC, settings.get(Setting.LOCKING_MODE));
        assertEquals(WriteDurability.FSYNC_WAL, settings.get(Setting.WRITE_DURABILITY));
        assertEquals(FailMode.NEW_SESSION, settings.get(Setting.FAIL_MODE));
        assertEquals(false, settings.get(Setting.CREATE_TABLE));
        assertEquals("user", settings.get(Setting.PRINCIPAL_ATTRIBUTE));
        assertEquals(StateProtection.ENCRYPT, settings.get(Setting.STATE_PROTECTION));
        assertEquals(2, settings.get(Setting.REGION_REPLICAS));
        assertEquals(true, settings.get(Setting.TIMELINE_READS));
        assertEquals(20L, settings.get(Setting.TIMELINE_READ_AFTER_MILLIS));
        assertEquals("pessimistic", settings.asNamedValues().get("lockingMode"));
        assertEquals("com\\.shop\\..*", settings.asNamedValues().get("attributeClassFilter"));
        assertEquals("com.shared.Money,com.shared.model.", settings.asNamedValues().get("allowedAttributeClasses"));
        assertEquals(Setting.all().size() - 1, settings.asNamedValues().size(), "all but hbaseSite have a value");
    }

    @Test
    void aWrongValueNamesTheSettingAndWhatIsAllowed() {
        assertMessage(() -> minimal().set("regions", "lots"), "regions='lots'", "expected a number");
        assertMessage(() -> minimal().set("regions", "999"), "regions", "between 1 and 256");
        assertMessage(() -> minimal().set("lockingMode", "sometimes"), "lockingMode", "optimistic");
        assertMessage(() -> minimal().set("writeDurability", "SKIP_WAL"), "SKIP_WAL is not allowed");
        assertMessage(() -> minimal().set("table", "bad table"), "table", "not a valid HBase table name");
        assertMessage(() -> minimal().set("createTable", "yes"), "true or false");
        assertMessage(() -> minimal().set("attributeClassFilter", "java.lang.(String"), "attributeClassFilter",
                "not a regular expression");
        assertMessage(() -> minimal().set("allowedAttributeClasses", "com.shop.Money, com..shop"),
                "allowedAttributeClasses", "'com..shop' is not a class name");
        assertMessage(() -> minimal().set("noSuchSetting", "x"), "Unknown setting 'noSuchSetting'", "zookeeperQuorum");
        assertMessage(() -> minimal().set("regionReplicas", "4"), "regionReplicas", "between 1 and 3");
    }

    /** Without a secondary, timeline reads would only add a warning of HBase's client to every load. */
    @Test
    void timelineReadsNeedASecondaryReplicaAndABoundBelowTheOperationTimeout() {
        assertMessage(() -> minimal().set("timelineReads", "true").build(),
                "timelineReads=true needs regionReplicas=2 or 3", "not 1");
        assertMessage(() -> minimal().set("timelineReads", "true").set("regionReplicas", "2")
                .set("timelineReadAfterMillis", "5000").build(),
                "timelineReadAfterMillis=5000 must be below operationTimeoutMillis=5000");
        assertEquals(3, minimal().set("regionReplicas", "3").set("timelineReads", "true").build()
                .get(Setting.REGION_REPLICAS));
    }

    @Test
    void everyProblemOfACombinationIsListedAtOnce() {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, () -> StoreSettings.builder()
                .set("table", "same").set("indexTable", "same").set("maxLifetimeSeconds", "60")
                .set("touchIntervalSeconds", "60").set("expiryEvents", "true").set("expiryTable", "same").build());
        for (String part : List.of("zookeeperQuorum", "keyScope must not be empty", "table and indexTable must differ",
                "expiryTable must differ from table and indexTable (it is 'same')",
                "touchIntervalSeconds=60 must be below maxLifetimeSeconds=60")) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }

    @Test
    void anUnreadableHbaseSiteIsNamed(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.xml");
        assertMessage(() -> StoreSettings.builder().set("hbaseSite", missing.toString()).set("keyScope", "/").build(),
                "is not a readable file");
        Path site = Files.writeString(dir.resolve("hbase-site.xml"), "<configuration/>");
        assertEquals(site, StoreSettings.builder().set("hbaseSite", site.toString()).set("keyScope", "/").build()
                .get(Setting.HBASE_SITE));
    }

    @Test
    void aBlankValueMeansTheDefaultAndAConfiguredKeyScopeWinsOverTheDefaultOne() {
        StoreSettings settings = minimal().set("table", " ").defaultKeyScope("/ignored").build();
        assertEquals("sessions", settings.get(Setting.TABLE));
        assertEquals("/shop", settings.get(Setting.KEY_SCOPE));
    }

    private static void assertMessage(Runnable configure, String... parts) {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, () -> {
            configure.run();
            throw new AssertionError("no exception");
        });
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
    }
}
