package io.hbasesessions.demo.jetty;

import io.hbasesessions.jetty.HBaseSessionDataStoreFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.eclipse.jetty.ee10.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.FormAuthenticator;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.session.DefaultSessionCacheFactory;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.util.security.Password;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The demo's Jetty node: an embedded Jetty serving the shop WAR at {@value #CONTEXT_PATH} on 127.0.0.1,
 * its sessions in HBase through an {@link HBaseSessionDataStoreFactory} bean, with the session cache
 * the {@code session-store-hbase} module sets for non-sticky use. Runs until the JVM is told to stop.
 * The cross-container tests start it with another WAR, context path and tables.
 */
@Command(name = "jetty-shop-node",
        description = "Serves the shop WAR at /shop on an embedded Jetty, its sessions stored in HBase.")
public final class JettyShopNode implements Callable<Integer> {

    static final String CONTEXT_PATH = "/shop";
    /** The users the shop's login form names; they have no roles, the shop needs none. */
    static final List<String> DEMO_USERS = List.of("alice", "bob", "carol");
    static final String DEMO_PASSWORD = "demo";

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean helpRequested;

    @Option(names = "--port", required = true, description = "HTTP port on 127.0.0.1.")
    int port;

    @Option(names = "--war", required = true, description = "The WAR to serve (the shop's).")
    Path war;

    @Option(names = "--context-path", description = "Where the WAR is served. Default: ${DEFAULT-VALUE}")
    String contextPath = CONTEXT_PATH;

    @Option(names = "--zookeeper-quorum", required = true, description = "HBase's ZooKeeper, host:port.")
    String zookeeperQuorum;

    @Option(names = "--key-scope", required = true, description = "Nodes with the same key scope share sessions.")
    String keyScope;

    @Option(names = "--table", description = "The sessions table ([namespace:]name). Default: the store's.")
    String table;

    @Option(names = "--index-table", description = "The principal index table ([namespace:]name). Default: the store's.")
    String indexTable;

    @Option(names = "--work-dir", required = true, description = "Where Jetty unpacks the WAR.")
    Path workDirectory;

    public static void main(String[] args) {
        System.exit(new CommandLine(new JettyShopNode()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.addBean(nonStickySessionCache());
        server.addBean(hbaseSessions());

        WebAppContext shop = new WebAppContext(war.toString(), contextPath);
        shop.setTempDirectory(workDirectory.toFile());
        shop.setSecurityHandler(demoLogin());
        server.setHandler(shop);
        server.setStopAtShutdown(true);

        server.start();
        if (!shop.isAvailable()) {
            System.err.println("error: " + war.getFileName() + " did not start on Jetty (port " + port
                    + "): see the messages above");
            server.stop();
            return 1;
        }
        System.out.println("Jetty node serves http://localhost:" + port + contextPath + "/");
        server.join();
        return 0;
    }

    /** Another node may change a session between two requests: nothing is kept from one request to the next. */
    private static DefaultSessionCacheFactory nonStickySessionCache() {
        DefaultSessionCacheFactory cache = new DefaultSessionCacheFactory();
        cache.setEvictionPolicy(SessionCache.EVICT_ON_SESSION_EXIT);
        cache.setFlushOnResponseCommit(true);
        return cache;
    }

    private HBaseSessionDataStoreFactory hbaseSessions() {
        HBaseSessionDataStoreFactory store = new HBaseSessionDataStoreFactory();
        store.setZookeeperQuorum(zookeeperQuorum);
        store.setKeyScope(keyScope);
        if (table != null) {
            store.setTable(table);
        }
        if (indexTable != null) {
            store.setIndexTable(indexTable);
        }
        return store;
    }

    /**
     * The demo users. FORM authentication with no constrained path is what makes Jetty keep a
     * {@code request.login} in the session; the shop never sends anyone to the login page.
     */
    private static ConstraintSecurityHandler demoLogin() {
        UserStore users = new UserStore();
        DEMO_USERS.forEach(user -> users.addUser(user, new Password(DEMO_PASSWORD), new String[0]));
        HashLoginService realm = new HashLoginService("shop");
        realm.setUserStore(users);
        ConstraintSecurityHandler security = new ConstraintSecurityHandler();
        security.setLoginService(realm);
        security.setAuthenticator(new FormAuthenticator("/", "/", false));
        return security;
    }
}
