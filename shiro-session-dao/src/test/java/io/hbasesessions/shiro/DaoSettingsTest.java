package io.hbasesessions.shiro;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreConfigurationException;
import java.beans.IntrospectionException;
import java.beans.Introspector;
import java.beans.PropertyDescriptor;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.shiro.subject.support.DefaultSubjectContext;
import org.junit.jupiter.api.Test;

/** The settings vocabulary as shiro.ini bean properties, checked without HBase. */
class DaoSettingsTest {

    @Test
    void everySettingIsAStringBeanPropertyOfTheDao() throws IntrospectionException {
        Set<String> properties = Arrays.stream(Introspector.getBeanInfo(HBaseSessionDAO.class).getPropertyDescriptors())
                .filter(property -> property.getWriteMethod() != null && property.getPropertyType() == String.class)
                .map(PropertyDescriptor::getName).collect(Collectors.toSet());
        List<String> missing = Setting.all().stream().map(Setting::name).filter(name -> !properties.contains(name)).toList();
        assertEquals(List.of(), missing);
    }

    @Test
    void theKeyScopeIsRequiredAndThePrincipalsAttributeIsTheDefaultIndexedUser() {
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class,
                () -> HBaseSessionDAO.settingsOf(Map.of("zookeeperQuorum", "zk1")));
        assertTrue(refused.getMessage().contains("keyScope"), refused.getMessage());

        assertEquals(DefaultSubjectContext.PRINCIPALS_SESSION_KEY, HBaseSessionDAO.settingsOf(
                Map.of("zookeeperQuorum", "zk1", "keyScope", "/shop")).get(Setting.PRINCIPAL_ATTRIBUTE));
        assertEquals("user", HBaseSessionDAO.settingsOf(Map.of("zookeeperQuorum", "zk1", "keyScope", "/shop",
                "principalAttribute", "user")).get(Setting.PRINCIPAL_ATTRIBUTE));
    }

    @Test
    void expiryEventsAreRefusedBecauseNothingWouldDeliverThem() {
        assertThrows(StoreConfigurationException.class, () -> HBaseSessionDAO.settingsOf(
                Map.of("zookeeperQuorum", "zk1", "keyScope", "/shop", "expiryEvents", "true")));
    }

    @Test
    void anUnknownSettingIsRefusedWhenSet() {
        assertThrows(StoreConfigurationException.class, () -> new HBaseSessionDAO().setSetting("zookeperQuorum", "zk1"));
    }

    @Test
    void aDaoThatWasNotInitializedSaysHowToInitializeIt() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new HBaseSessionDAO().readSession("any"));
        assertTrue(refused.getMessage().contains("init()"), refused.getMessage());
    }
}
