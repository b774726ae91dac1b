package io.hbasesessions.jetty;

import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.contract.AbstractAdapterContractTest;
import io.hbasesessions.testing.contract.AdapterNode;
import java.net.URI;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.FormAuthenticator;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.session.CachingSessionDataStoreFactory;
import org.eclipse.jetty.session.DefaultSessionIdManager;
import org.eclipse.jetty.session.SessionDataMapFactory;
import org.eclipse.jetty.session.SessionDataStore;
import org.eclipse.jetty.util.security.Password;

/**
 * One embedded Jetty server serving the real test WAR at {@value #CONTEXT_PATH}, configured as an
 * embedded-Jetty user would: an {@link HBaseSessionDataStoreFactory} bean, and a session cache that
 * evicts on request exit (non-sticky) and stores before the response is committed. Its realm knows the
 * contract suite's user. (testing/jetty-node cannot serve this module's tests: it is built from this module.)
 */
final class JettyNode implements AdapterNode {

    static final String CONTEXT_PATH = "/app";

    private final Server server;
    private final WebAppContext webapp;
    private final ServerConnector connector;

    private JettyNode(String workerName, Map<String, String> storeSettings, SessionDataMapFactory cacheInFront) {
        server = new Server();
        connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        server.addConnector(connector);

        DefaultSessionIdManager ids = new DefaultSessionIdManager(server);
        ids.setWorkerName(workerName);
        server.addBean(ids, true);

        server.addBean(new HBaseSessionCacheFactory());

        HBaseSessionDataStoreFactory store = new HBaseSessionDataStoreFactory();
        storeSettings.forEach(store::setSetting);
        if (cacheInFront == null) {
            server.addBean(store);
        } else {
            CachingSessionDataStoreFactory caching = new CachingSessionDataStoreFactory();
            caching.setSessionStoreFactory(store);
            caching.setSessionDataMapFactory(cacheInFront);
            server.addBean(caching);
        }

        webapp = new WebAppContext();
        webapp.setContextPath(CONTEXT_PATH);
        webapp.setWar(testWar().toString());
        webapp.setSecurityHandler(formLogin());
        server.setHandler(webapp);
    }

    /** Starts a node named {@code workerName} (its ids end in {@code .workerName}). */
    static JettyNode start(String workerName, Map<String, String> storeSettings) {
        return start(workerName, storeSettings, null);
    }

    /**
     * Starts a node whose HBase store sits behind Jetty's {@code CachingSessionDataStore} with the
     * given cache in front (as a memcached or other shared cache would be configured).
     */
    static JettyNode start(String workerName, Map<String, String> storeSettings, SessionDataMapFactory cacheInFront) {
        JettyNode node = new JettyNode(workerName, storeSettings, cacheInFront);
        try {
            node.server.start();
        } catch (Exception e) {
            node.close();
            throw new AssertionError("Jetty did not start: " + e, e);
        }
        if (!node.webapp.isAvailable()) {
            node.close();
            throw new AssertionError("The test WAR did not deploy", node.webapp.getUnavailableException());
        }
        return node;
    }

    static Path testWar() {
        return Path.of(System.getProperty("test.war", "target/wars/test-webapp.war"));
    }

    @Override
    public URI servlet() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + CONTEXT_PATH + "/session");
    }

    /** The web application's session data store, as Jetty's session cache calls it. */
    SessionDataStore sessionDataStore() {
        return webapp.getSessionHandler().getSessionCache().getSessionDataStore();
    }

    @Override
    public StoreCounters counters() {
        return ((HBaseSessionDataStore) sessionDataStore()).getCounters();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new AssertionError("Jetty did not stop: " + e, e);
        }
    }

    /** FORM authentication without constraints: {@code request.login} keeps the user in the session. */
    private static ConstraintSecurityHandler formLogin() {
        UserStore users = new UserStore();
        users.addUser(AbstractAdapterContractTest.USER, new Password(AbstractAdapterContractTest.PASSWORD),
                new String[] {"user"});
        HashLoginService realm = new HashLoginService("test");
        realm.setUserStore(users);
        ConstraintSecurityHandler security = new ConstraintSecurityHandler();
        security.setLoginService(realm);
        security.setAuthenticator(new FormAuthenticator("/login", "/login-error", false));
        return security;
    }
}
