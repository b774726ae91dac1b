package io.hbasesessions.tomcat;

import io.hbasesessions.store.KeyScopes;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.SessionStoreException;
import io.hbasesessions.store.StoreSettings;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.catalina.Context;
import org.apache.catalina.Engine;
import org.apache.catalina.LifecycleException;

/**
 * The store settings a {@code <Manager>} or {@code <Store>} element was given, by the configuration
 * names every adapter shares: Tomcat hands each XML attribute that has no setter of its own to
 * {@code setProperty(name, value)}. Values are kept as text and checked together when the store
 * opens, so a wrong one fails the context's start with the store's own explanation.
 */
final class ConfiguredSettings {

    private final Map<String, String> values = new LinkedHashMap<>();
    private final List<String> unknownNames = new ArrayList<>();

    /** Records one attribute; false for a name that is no setting (Tomcat then warns, and the start fails). */
    boolean set(String name, String value) {
        if (!Setting.isName(name)) {
            unknownNames.add(name);
            return false;
        }
        values.put(name, value);
        return true;
    }

    /**
     * The settings for {@code context}; {@code keyScope} defaults to the context path (plus a non-default
     * host), {@code attributeClassFilter} to the manager's {@code sessionAttributeValueClassNameFilter}.
     */
    StoreSettings resolve(Context context, String tomcatClassNameFilter) throws LifecycleException {
        try {
            if (!unknownNames.isEmpty()) {
                Setting.named(unknownNames.get(0));
            }
            StoreSettings.Builder builder = StoreSettings.builder();
            builder.set(Setting.ATTRIBUTE_CLASS_FILTER.name(), tomcatClassNameFilter);
            values.forEach(builder::set);
            return builder.defaultKeyScope(KeyScopes.defaultFor(virtualHost(context), context.getPath())).build();
        } catch (SessionStoreException e) {
            throw new LifecycleException(describe(context) + ": " + e.getMessage(), e);
        }
    }

    /** The host of a context, unless it is the engine's default host. */
    private static Optional<String> virtualHost(Context context) {
        String host = context.getParent().getName();
        return context.getParent().getParent() instanceof Engine engine && host.equals(engine.getDefaultHost())
                ? Optional.empty() : Optional.of(host);
    }

    static String describe(Context context) {
        return "HBase sessions for context [" + (context.getPath().isEmpty() ? "/" : context.getPath()) + "]";
    }
}
