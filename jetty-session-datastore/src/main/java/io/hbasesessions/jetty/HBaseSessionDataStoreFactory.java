package io.hbasesessions.jetty;

import io.hbasesessions.store.Setting;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.session.SessionDataStore;
import org.eclipse.jetty.session.SessionManager;

/**
 * Makes an {@link HBaseSessionDataStore} for each web application. Add it to the {@code Server} as a
 * bean (the {@code session-store-hbase} module does) and every context stores its sessions in HBase.
 * Settings are given by typed setters for an embedded Jetty ({@code factory.setZookeeperQuorum("zk1,zk2")},
 * {@code factory.setOperationTimeoutMillis(2000)}), generated from the store's settings in
 * {@link HBaseSessionDataStoreFactorySetters}, or by the configuration names shared with Tomcat and the module's
 * {@code jetty.session.hbase.*} properties: {@code factory.setSetting("zookeeperQuorum", "zk1,zk2")}.
 * Unset ones keep the store's defaults; values are checked when a context starts, all at once, with
 * messages that say how to fix them.
 */
public class HBaseSessionDataStoreFactory extends HBaseSessionDataStoreFactorySetters {

    private final Map<String, String> namedSettings = new LinkedHashMap<>();
    private ClassLoader applicationClassLoader;

    @Override
    public SessionDataStore getSessionDataStore(SessionManager manager) {
        HBaseSessionDataStore store = new HBaseSessionDataStore(namedSettings);
        store.setApplicationClassLoader(applicationClassLoader);
        store.setGracePeriodSec(getGracePeriodSec());
        store.setSavePeriodSec(getSavePeriodSec());
        return store;
    }

    /**
     * For an embedded Jetty whose application classes are on the class path the server itself was started from
     * (Spring Boot): the loader that defines them. The store admits attribute classes of the application's own
     * loader only; unset, that is each context's class loader, which defines a WAR's classes.
     */
    public void setApplicationClassLoader(ClassLoader loader) {
        this.applicationClassLoader = loader;
    }

    /**
     * Sets one store setting by its name; a null or blank value (a property left unset in the module's
     * ini file) keeps the default.
     *
     * @throws io.hbasesessions.store.StoreConfigurationException for a name that is no setting
     */
    @Override
    public void setSetting(String name, String value) {
        Setting.named(name);
        if (value == null || value.isBlank()) {
            namedSettings.remove(name);
        } else {
            namedSettings.put(name, value);
        }
    }

    /**
     * The value set for one store setting, as text; null while it keeps the default.
     *
     * @throws io.hbasesessions.store.StoreConfigurationException for a name that is no setting
     */
    public String getSetting(String name) {
        Setting.named(name);
        return namedSettings.get(name);
    }
}
