package io.hbasesessions.tomcat;

import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;

/**
 * The store settings a {@code <Manager>} or {@code <Store>} element was given, by the configuration
 * names every adapter shares. Values are kept as text and checked together when the store opens, so a
 * wrong one fails the context's start with the store's own explanation.
 */
final class ConfiguredSettings {

    private final Map<String, String> values = new LinkedHashMap<>();

    void put(String name, String value) {
        values.put(name, value);
    }

    /** The settings for {@code context}: {@code keyScope} defaults to host name plus context path. */
    StoreSettings resolve(Context context) throws LifecycleException {
        StoreSettings.Builder builder = StoreSettings.builder().keyScope(defaultKeyScope(context));
        try {
            values.forEach(builder::set);
            return builder.build();
        } catch (SessionStoreException e) {
            throw new LifecycleException(describe(context) + ": " + e.getMessage(), e);
        }
    }

    /**
     * Opens the store with this library's class loader as the context loader, so that the threads the
     * HBase client starts never pin the web application's class loader after a redeploy.
     */
    static SessionStore open(StoreSettings settings, Context context) throws LifecycleException {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(ConfiguredSettings.class.getClassLoader());
        try {
            return SessionStores.open(settings);
        } catch (SessionStoreException e) {
            throw new LifecycleException(describe(context) + ": cannot open the HBase session store: "
                    + e.getMessage(), e);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    static String defaultKeyScope(Context context) {
        String path = context.getPath();
        return context.getParent().getName() + (path.isEmpty() ? "/" : path);
    }

    private static String describe(Context context) {
        return "HBase sessions for context [" + (context.getPath().isEmpty() ? "/" : context.getPath()) + "]";
    }
}
