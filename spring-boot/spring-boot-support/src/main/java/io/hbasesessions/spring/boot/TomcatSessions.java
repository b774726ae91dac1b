package io.hbasesessions.spring.boot;

import io.hbasesessions.tomcat.HBaseSessionManager;
import org.apache.catalina.Context;
import org.apache.catalina.Engine;

/**
 * Puts the HBase session manager on the embedded Tomcat's context, in place of the manager Boot set up
 * (a {@code StandardManager} with {@code server.servlet.session.persistent}). Called by each Boot line's
 * context customizer, which runs after Boot's own session configuration and before the context starts,
 * so the manager's valve comes before the Authenticator, as with a {@code context.xml}.
 */
public final class TomcatSessions {

    private TomcatSessions() {
    }

    public static void install(Context context, SessionStoreProperties properties) {
        HBaseSessionManager manager = new HBaseSessionManager();
        properties.byName().forEach(manager::setProperty);
        // Boot gives the context the application's class loader as its parent; the context's own defines nothing.
        manager.setApplicationClassLoader(context.getParentClassLoader());
        // Boot has added the context to its host by now: the engine is the host's parent.
        properties.route().ifPresent(route -> ((Engine) context.getParent().getParent()).setJvmRoute(route));
        context.setManager(manager);
    }
}
