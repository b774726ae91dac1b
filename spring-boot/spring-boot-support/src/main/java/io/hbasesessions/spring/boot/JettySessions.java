package io.hbasesessions.spring.boot;

import io.hbasesessions.jetty.HBaseSessionCacheFactory;
import io.hbasesessions.jetty.HBaseSessionDataStoreFactory;
import java.util.Optional;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.session.AbstractSessionManager;
import org.eclipse.jetty.session.DefaultSessionIdManager;
import org.eclipse.jetty.session.SessionCache;

/**
 * Gives every session handler of the embedded Jetty the HBase session cache (which keeps no session
 * between requests, so any node can serve the next one) and the HBase session data store. Set on the
 * handler itself, not as server beans: Boot sets a file store on the handler with
 * {@code server.servlet.session.persistent}, and a handler's own cache wins over the server's.
 * Called by each Boot line's server customizer, which runs once the web application's handlers exist.
 */
public final class JettySessions {

    private JettySessions() {
    }

    public static void install(Server server, SessionStoreProperties properties) {
        HBaseSessionDataStoreFactory stores = new HBaseSessionDataStoreFactory();
        properties.byName().forEach(stores::setSetting);
        // The starter is on the application's class path: its loader defines the application's classes too.
        stores.setApplicationClassLoader(JettySessions.class.getClassLoader());
        HBaseSessionCacheFactory caches = new HBaseSessionCacheFactory();
        Optional<DefaultSessionIdManager> routedIds = properties.route().map(route -> {
            DefaultSessionIdManager ids = new DefaultSessionIdManager(server);
            ids.setWorkerName(route);
            server.addBean(ids, true);
            return ids;
        });
        for (AbstractSessionManager handler : server.getContainedBeans(AbstractSessionManager.class)) {
            routedIds.ifPresent(handler::setSessionIdManager);
            SessionCache cache = caches.getSessionCache(handler);
            cache.setSessionDataStore(stores.getSessionDataStore(handler));
            handler.setSessionCache(cache);
        }
    }
}
