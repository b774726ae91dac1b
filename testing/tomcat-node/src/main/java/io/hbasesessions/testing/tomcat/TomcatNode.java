package io.hbasesessions.testing.tomcat;

import io.hbasesessions.testing.NodeOptions;
import io.hbasesessions.testing.NodeOptions.User;
import io.hbasesessions.store.Setting;
import io.hbasesessions.tomcat.HBaseSessionManager;
import java.io.IOException;
import java.nio.file.Files;
import java.util.function.BiConsumer;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Manager;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * An embedded Tomcat serving one WAR on 127.0.0.1 as {@link NodeOptions} describe it, with the
 * session manager it is given: {@link #sessionManager} makes this project's {@link HBaseSessionManager}
 * (set up with the same attributes a Tomcat user writes on the {@code <Manager>} line) or Tomcat's own
 * in-memory one. {@link TomcatNodeMain} runs it; the benchmarks start it with managers of their own.
 */
public final class TomcatNode {

    private final Tomcat tomcat;
    private final Context context;
    private final Connector connector;

    private TomcatNode(Tomcat tomcat, Context context, Connector connector) {
        this.tomcat = tomcat;
        this.context = context;
        this.connector = connector;
    }

    /** The manager {@code --sessions} names, with the {@code --store-setting}s applied. */
    public static Manager sessionManager(NodeOptions options) {
        return switch (options.sessions()) {
            case HBASE -> {
                HBaseSessionManager manager = new HBaseSessionManager();
                options.storeSettings().forEach((name, value) -> {
                    if (!manager.setProperty(name, value)) {
                        Setting.named(name);
                    }
                });
                yield manager;
            }
            case MEMORY -> {
                StandardManager manager = new StandardManager();
                manager.setPathname(null); // nothing written at stop: a benchmark leaves 100,000 sessions
                yield manager;
            }
        };
    }

    /**
     * Starts Tomcat with the WAR deployed; stops it again and fails if the WAR or the connector did not
     * start. A JVM shutdown (SIGTERM) stops it cleanly.
     */
    public static TomcatNode start(NodeOptions options, Manager manager) throws IOException, LifecycleException {
        return start(options, manager, (tomcat, context) -> { });
    }

    /**
     * Starts Tomcat as {@link #start(NodeOptions, Manager)} does, once {@code contextXml} has added to the
     * WAR's context what a context.xml would (valves, JNDI resources: it enables naming for those).
     */
    public static TomcatNode start(NodeOptions options, Manager manager, BiConsumer<Tomcat, Context> contextXml)
            throws IOException, LifecycleException {
        Files.createDirectories(options.workDirectory().resolve("webapps"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(options.workDirectory().toString());
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Connector connector = new Connector();
        connector.setPort(options.port());
        connector.setProperty("address", "127.0.0.1");
        // Tomcat closes a keep-alive connection after 100 requests by default; Jetty never does.
        connector.setProperty("maxKeepAliveRequests", "-1");
        tomcat.setConnector(connector);
        options.route().ifPresent(route -> tomcat.getEngine().setJvmRoute(route));
        for (User user : options.users()) {
            tomcat.addUser(user.name(), user.password());
            user.roles().forEach(role -> tomcat.addRole(user.name(), role));
        }

        Context context = tomcat.addWebapp(options.contextPath(), options.war().toString());
        // The node's classpath (the HBase client and all) holds no web fragments: scanning it only costs time.
        ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
        context.setManager(manager);
        contextXml.accept(tomcat, context);

        TomcatNode node = new TomcatNode(tomcat, context, connector);
        Runtime.getRuntime().addShutdownHook(new Thread(node::stop, "tomcat-node-stop"));
        tomcat.start();
        if (context.getState() != LifecycleState.STARTED || connector.getState() != LifecycleState.STARTED) {
            node.stop();
            throw new IllegalStateException(options.war().getFileName() + " did not start on Tomcat (port "
                    + options.port() + "): see the messages above");
        }
        return node;
    }

    public int port() {
        return connector.getLocalPort();
    }

    /** {@code Apache Tomcat/10.1.62}: what the webapp's {@code getServerInfo()} says. */
    public String serverInfo() {
        return context.getServletContext().getServerInfo();
    }

    public Manager manager() {
        return context.getManager();
    }

    /** Blocks until Tomcat is stopped. */
    public void await() {
        tomcat.getServer().await();
    }

    public synchronized void stop() {
        if (tomcat.getServer().getState() == LifecycleState.DESTROYED) {
            return;
        }
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            System.err.println("Tomcat did not stop cleanly: " + e);
        }
    }
}
