package io.hbasesessions.demo.tomcat;

import io.hbasesessions.tomcat.HBaseSessionManager;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The demo's Tomcat node: an embedded Tomcat serving the shop WAR at {@value #CONTEXT_PATH} on
 * 127.0.0.1, its sessions in HBase through {@link HBaseSessionManager}, set up with the same
 * attributes a Tomcat user writes on the {@code <Manager>} line. Runs until the JVM is told to stop.
 * The cross-container tests start it with another WAR, context path and tables.
 */
@Command(name = "tomcat-shop-node",
        description = "Serves the shop WAR at /shop on an embedded Tomcat, its sessions stored in HBase.")
public final class TomcatShopNode implements Callable<Integer> {

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

    @Option(names = "--table", description = "The sessions table ([namespace:]name). Default: the manager's.")
    String table;

    @Option(names = "--index-table", description = "The principal index table ([namespace:]name). Default: the manager's.")
    String indexTable;

    @Option(names = "--work-dir", required = true, description = "Tomcat's base directory (unpacked WAR, work files).")
    Path workDirectory;

    public static void main(String[] args) {
        System.exit(new CommandLine(new TomcatShopNode()).execute(args));
    }

    @Override
    public Integer call() throws LifecycleException {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(workDirectory.toString());
        Connector connector = new Connector();
        connector.setPort(port);
        connector.setProperty("address", "127.0.0.1");
        tomcat.setConnector(connector);
        DEMO_USERS.forEach(user -> tomcat.addUser(user, DEMO_PASSWORD));

        Context shop = tomcat.addWebapp(contextPath, war.toString());
        // The node's classpath (the HBase client and all) holds no web fragments: scanning it only costs time.
        ((StandardJarScanner) shop.getJarScanner()).setScanClassPath(false);
        shop.setManager(hbaseSessions());

        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(tomcat), "tomcat-shop-node-stop"));
        tomcat.start();
        if (shop.getState() != LifecycleState.STARTED || connector.getState() != LifecycleState.STARTED) {
            System.err.println("error: " + war.getFileName() + " did not start on Tomcat (port " + port
                    + "): see the messages above");
            return 1;
        }
        System.out.println("Tomcat node serves http://localhost:" + port + contextPath + "/");
        tomcat.getServer().await();
        return 0;
    }

    private HBaseSessionManager hbaseSessions() {
        HBaseSessionManager manager = new HBaseSessionManager();
        manager.setZookeeperQuorum(zookeeperQuorum);
        manager.setKeyScope(keyScope);
        if (table != null) {
            manager.setTable(table);
        }
        if (indexTable != null) {
            manager.setIndexTable(indexTable);
        }
        return manager;
    }

    private static void stop(Tomcat tomcat) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            System.err.println("Tomcat did not stop cleanly: " + e);
        }
    }
}
