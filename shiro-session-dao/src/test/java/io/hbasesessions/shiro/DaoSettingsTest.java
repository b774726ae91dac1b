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
        HBaseSessionDAO dao = new HBaseSessionDAO();
        dao.setZookeeperQuorum("zk1");
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class, dao::init);
        assertTrue(refused.getMessage().contains("keyScope must not be empty"), refused.getMessage());

        dao.setKeyScope("/shop");
        assertEquals(DefaultSubjectContext.PRINCIPALS_SESSION_KEY, dao.settings().get(Setting.PRINCIPAL_ATTRIBUTE));
        dao.setPrincipalAttribute("user");
        assertEquals("user", dao.settings().get(Setting.PRINCIPAL_ATTRIBUTE));
    }

    @Test
    void anUnknownSettingOrAValueThatDoesNotParseIsRefusedWhenSet() {
        HBaseSessionDAO dao = new HBaseSessionDAO();
        assertThrows(StoreConfigurationException.class, () -> dao.setSetting("zookeperQuorum", "zk1"));
        assertThrows(StoreConfigurationException.class, () -> dao.setTouchIntervalSeconds("a minute"));
    }

    /** Issue #28 item 2: the safe setup is the only one: Shiro's cookie is never the container's. */
    @Test
    void theSessionManagersCookieIsShirosOwnAndTheContainersIsRefusedAtStart() {
        HBaseWebSessionManager manager = new HBaseWebSessionManager();
        assertEquals(HBaseWebSessionManager.DEFAULT_COOKIE_NAME, manager.getSessionIdCookie().getName());
        manager.getSessionIdCookie().setName("JSESSIONID");
        StoreConfigurationException refused = assertThrows(StoreConfigurationException.class, manager::init);
        assertTrue(refused.getMessage().contains("sessionManager.sessionIdCookie.name"), refused.getMessage());
    }

    @Test
    void aDaoThatWasNotInitializedSaysHowToInitializeIt() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> new HBaseSessionDAO().readSession("any"));
        assertTrue(refused.getMessage().contains("init()"), refused.getMessage());
    }
}
