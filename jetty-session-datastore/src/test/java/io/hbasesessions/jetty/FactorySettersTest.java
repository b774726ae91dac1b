package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.LockingMode;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.TableCompression;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An embedded Jetty configures the store as it configures Jetty's own store factories: by typed setters. */
class FactorySettersTest {

    @Test
    void everySettingHasASetterOnTheFactory() {
        Set<String> setters = Arrays.stream(HBaseSessionDataStoreFactory.class.getMethods())
                .filter(method -> method.getParameterCount() == 1 && method.getName().startsWith("set"))
                .map(Method::getName).collect(Collectors.toSet());
        List<String> missing = Setting.all().stream()
                .map(setting -> "set" + setting.name().substring(0, 1).toUpperCase(Locale.ROOT) + setting.name().substring(1))
                .filter(setter -> !setters.contains(setter)).toList();
        assertEquals(List.of(), missing);
    }

    @Test
    void typedValuesReachTheStoreAsItsSettingsAndNullKeepsTheDefault(@TempDir Path directory) throws IOException {
        Path hbaseSite = Files.writeString(directory.resolve("hbase-site.xml"), "<configuration/>");
        HBaseSessionDataStoreFactory factory = new HBaseSessionDataStoreFactory();
        factory.setZookeeperQuorum("zk1,zk2:2181");
        factory.setOperationTimeoutMillis(2_000);
        factory.setRegions(4);
        factory.setCreateTable(false);
        factory.setCompression(TableCompression.GZ);
        factory.setLockingMode(LockingMode.PESSIMISTIC);
        factory.setHbaseSite(hbaseSite);
        factory.setAttributeClassFilter("com\\.shop\\..*");
        factory.setTable("shop:sessions");
        factory.setTable(null);

        StoreSettings.Builder builder = StoreSettings.builder();
        Setting.all().stream().filter(setting -> factory.getSetting(setting.name()) != null)
                .forEach(setting -> builder.set(setting.name(), factory.getSetting(setting.name())));
        StoreSettings settings = builder.defaultKeyScope("/shop").build();

        assertEquals("zk1,zk2:2181", settings.get(Setting.ZOOKEEPER_QUORUM));
        assertEquals(2_000L, settings.get(Setting.OPERATION_TIMEOUT_MILLIS));
        assertEquals(4, settings.get(Setting.REGIONS));
        assertEquals(false, settings.get(Setting.CREATE_TABLE));
        assertEquals(TableCompression.GZ, settings.get(Setting.COMPRESSION));
        assertEquals(LockingMode.PESSIMISTIC, settings.get(Setting.LOCKING_MODE));
        assertEquals(hbaseSite, settings.get(Setting.HBASE_SITE));
        assertTrue(settings.get(Setting.ATTRIBUTE_CLASS_FILTER).matcher("com.shop.Money").matches());
        assertNull(factory.getSetting("table"));
        assertEquals("sessions", settings.get(Setting.TABLE));
    }
}
