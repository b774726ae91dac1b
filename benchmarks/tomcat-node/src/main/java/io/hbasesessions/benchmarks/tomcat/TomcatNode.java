package io.hbasesessions.benchmarks.tomcat;

import io.hbasesessions.benchmarks.node.NodeArguments;
import io.hbasesessions.benchmarks.node.NodeConsole;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.tomcat.HBaseSessionManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.Manager;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;
import org.redisson.tomcat.RedissonSessionManager;

/**
 * An embedded Tomcat 10.1 on 127.0.0.1 serving the benchmark WAR at {@code /app} with the session
 * manager named by {@code store=}: {@code standard} (Tomcat's in-memory default, the ceiling),
 * {@code hbase} (this project, out-of-the-box settings) or {@code redisson} (Redisson's default mode).
 * Controlled through {@link NodeConsole}.
 */
public final class TomcatNode {

    private TomcatNode() {
    }

    public static void main(String[] args) throws Exception {
        NodeArguments arguments = NodeArguments.parse(args);
        Path workDirectory = Path.of(arguments.require(NodeArguments.WORK_DIRECTORY));
        Files.createDirectories(workDirectory.resolve("webapps"));

        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(workDirectory.toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.setAddDefaultWebXmlToWebapp(false);
        // Tomcat closes a keep-alive connection after 100 requests by default; Jetty never does.
        tomcat.getConnector().setProperty("maxKeepAliveRequests", "-1");
        tomcat.getConnector().setProperty("address", "127.0.0.1");
        Context context = tomcat.addWebapp("/app", arguments.require(NodeArguments.WAR));
        ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
        Manager manager = manager(arguments);
        context.setManager(manager);
        tomcat.start();

        NodeConsole.serve(tomcat.getConnector().getLocalPort(), () -> counters(manager), () -> stop(tomcat));
    }

    private static Manager manager(NodeArguments arguments) {
        String store = arguments.require(NodeArguments.STORE);
        switch (store) {
            case "standard" -> {
                StandardManager manager = new StandardManager();
                manager.setPathname(null); // nothing written at stop: 100,000 sessions would take a while
                return manager;
            }
            case "hbase" -> {
                HBaseSessionManager manager = new HBaseSessionManager();
                manager.setZookeeperQuorum(arguments.require(NodeArguments.ZOOKEEPER_QUORUM));
                manager.setTable(arguments.require(NodeArguments.TABLE));
                manager.setIndexTable(arguments.require(NodeArguments.INDEX_TABLE));
                return manager;
            }
            case "redisson" -> {
                RedissonSessionManager manager = new RedissonSessionManager();
                manager.setConfigPath(arguments.require(NodeArguments.REDISSON_CONFIG));
                return manager;
            }
            default -> throw new IllegalArgumentException("store=" + store + ": expected standard, hbase or redisson");
        }
    }

    private static Map<String, Long> counters(Manager manager) {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("activeSessions", (long) manager.getActiveSessions());
        if (manager instanceof HBaseSessionManager hbase) {
            StoreCounters store = hbase.counters();
            counters.put("sessionWrites", store.sessionWrites());
            counters.put("loads", store.loads());
            counters.put("conflicts", store.conflicts());
        }
        return counters;
    }

    private static void stop(Tomcat tomcat) {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat did not stop", e);
        }
    }
}
