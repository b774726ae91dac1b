package io.hbasesessions.testing.jetty;

import io.hbasesessions.jetty.HBaseSessionCacheFactory;
import io.hbasesessions.jetty.HBaseSessionDataStoreFactory;
import io.hbasesessions.testing.NodeOptions;
import io.hbasesessions.testing.NodeOptions.User;
import java.nio.file.Files;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.FormAuthenticator;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.session.DefaultSessionCacheFactory;
import org.eclipse.jetty.session.DefaultSessionIdManager;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.session.SessionCacheFactory;
import org.eclipse.jetty.session.SessionDataStoreFactory;
import org.eclipse.jetty.util.security.Password;

/**
 * An embedded Jetty (ee10) serving one WAR on 127.0.0.1 as {@link NodeOptions} describe it. With a
 * session store ({@link #storeFactory}: this project's {@link HBaseSessionDataStoreFactory} bean, or
 * another) the session cache is the one the {@code session-store-hbase} module sets for non-sticky
 * use; without one, sessions stay in Jetty's own memory. {@link JettyNodeMain} runs it; the
 * benchmarks start it with a store of their own.
 */
public final class JettyNode {

    private final Server server;
    private final WebAppContext webapp;
    private final ServerConnector connector;

    private JettyNode(Server server, WebAppContext webapp, ServerConnector connector) {
        this.server = server;
        this.webapp = webapp;
        this.connector = connector;
    }

    /** The store {@code --sessions} names, with the {@code --store-setting}s applied; null for memory. */
    public static SessionDataStoreFactory storeFactory(NodeOptions options) {
        return switch (options.sessions()) {
            case HBASE -> {
                HBaseSessionDataStoreFactory factory = new HBaseSessionDataStoreFactory();
                options.storeSettings().forEach(factory::setSetting);
                yield factory;
            }
            case MEMORY -> null;
        };
    }

    /**
     * Starts Jetty with the WAR deployed; stops it again and fails if the WAR did not start. A JVM
     * shutdown (SIGTERM) stops it cleanly. {@code storeFactory} null: Jetty's in-memory sessions.
     */
    public static JettyNode start(NodeOptions options, SessionDataStoreFactory storeFactory) throws Exception {
        SessionCacheFactory cache = storeFactory == null ? null
                : storeFactory instanceof HBaseSessionDataStoreFactory ? new HBaseSessionCacheFactory()
                : nonStickySessionCache();
        return start(options, cache, storeFactory);
    }

    /**
     * As {@link #start(NodeOptions, SessionDataStoreFactory)}, with the session cache {@code cacheFactory} makes in
     * front of the store (the benchmarks compare another store's caches).
     */
    public static JettyNode start(NodeOptions options, SessionCacheFactory cacheFactory,
            SessionDataStoreFactory storeFactory) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(options.port());
        server.addConnector(connector);
        options.route().ifPresent(route -> {
            DefaultSessionIdManager ids = new DefaultSessionIdManager(server);
            ids.setWorkerName(route);
            server.addBean(ids, true);
        });
        if (storeFactory != null) {
            server.addBean(cacheFactory);
            server.addBean(storeFactory);
        }

        WebAppContext webapp = new WebAppContext(options.war().toString(), options.contextPath());
        webapp.setTempDirectory(Files.createDirectories(options.workDirectory()).toFile());
        if (!options.users().isEmpty()) {
            webapp.setSecurityHandler(login(options));
        }
        server.setHandler(webapp);
        server.setStopAtShutdown(true);

        server.start();
        if (!webapp.isAvailable()) {
            server.stop();
            throw new IllegalStateException(options.war().getFileName() + " did not start on Jetty (port "
                    + options.port() + "): see the messages above");
        }
        return new JettyNode(server, webapp, connector);
    }

    /** For another store: another node may change a session between two requests, so nothing is kept between them. */
    private static DefaultSessionCacheFactory nonStickySessionCache() {
        DefaultSessionCacheFactory cache = new DefaultSessionCacheFactory();
        cache.setEvictionPolicy(SessionCache.EVICT_ON_SESSION_EXIT);
        cache.setFlushOnResponseCommit(true);
        return cache;
    }

    /**
     * The {@code --user}s. FORM authentication with no constrained path is what makes Jetty keep a
     * {@code request.login} in the session; the webapp never sends anyone to the login page.
     */
    private static ConstraintSecurityHandler login(NodeOptions options) {
        UserStore users = new UserStore();
        for (User user : options.users()) {
            users.addUser(user.name(), new Password(user.password()), user.roles().toArray(String[]::new));
        }
        HashLoginService realm = new HashLoginService("node");
        realm.setUserStore(users);
        ConstraintSecurityHandler security = new ConstraintSecurityHandler();
        security.setLoginService(realm);
        security.setAuthenticator(new FormAuthenticator("/", "/", false));
        return security;
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** {@code jetty/12.1.14}: what the webapp's {@code getServerInfo()} says. */
    public String serverInfo() {
        return webapp.getServletContext().getServerInfo();
    }

    public WebAppContext webapp() {
        return webapp;
    }

    /** Blocks until Jetty is stopped. */
    public void await() throws InterruptedException {
        server.join();
    }

    public void stop() throws Exception {
        server.stop();
    }
}
