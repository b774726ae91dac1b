package io.hbasesessions.demo;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.EmbeddedHBaseException;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The demo: an embedded HBase, then a Tomcat node and a Jetty node, each a JVM of its own, serving
 * the shop WAR at {@code /shop} with their sessions in that HBase under one key scope, until Ctrl-C,
 * which stops all of them. Every failure is one {@code error:} line and exit code 1, with nothing left
 * running.
 */
@Command(name = "demo.sh",
        description = "Starts HBase, a Tomcat node and a Jetty node serving one shop with shared sessions, until Ctrl-C.")
public final class DemoMain implements Callable<Integer> {

    /** Both nodes store sessions under this scope, so a session is the same on either node. */
    static final String KEY_SCOPE = "shop";
    /** The first start creates the tables, which takes a few seconds more. */
    private static final Duration NODE_START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration HBASE_STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final long LIVENESS_CHECK_MILLIS = 1_000;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean helpRequested;

    @Option(names = "--tomcat-port", paramLabel = "PORT", description = "The Tomcat node's HTTP port. Default: ${DEFAULT-VALUE}")
    int tomcatPort = 8080;

    @Option(names = "--jetty-port", paramLabel = "PORT", description = "The Jetty node's HTTP port. Default: ${DEFAULT-VALUE}")
    int jettyPort = 8081;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "HBase's tables (kept between runs) and the nodes' logs. Default: ${DEFAULT-VALUE}")
    Path dataDirectory = Path.of(System.getProperty("user.home"), ".hbase-sessions", "demo");

    @Option(names = "--zookeeper-port", paramLabel = "PORT", description = "HBase's ZooKeeper port; 0 picks a free one. Default: ${DEFAULT-VALUE}")
    int zookeeperPort = 0;

    /** Set once HBase is up; the nodes are started after it. */
    private volatile EmbeddedHBase hbase;
    private volatile ShopNode tomcat;
    private volatile ShopNode jetty;
    /** Set once stopping began, so that what ends on purpose is not reported as a failure. */
    private volatile boolean stopping;

    public static void main(String[] args) {
        System.exit(new CommandLine(new DemoMain()).setExecutionExceptionHandler(DemoMain::printError).execute(args));
    }

    /** Blocks until Ctrl-C, or until a part ends on its own, which is a failure. */
    @Override
    public Integer call() throws InterruptedException {
        requireUsablePorts();
        Path war = shopWar();
        dataDirectory = dataDirectory.toAbsolutePath().normalize();
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopEverything, "demo-stop"));

        EmbeddedHBase server = EmbeddedHBase.builder().dataDirectory(dataDirectory).zookeeperPort(zookeeperPort)
                .stopTimeout(HBASE_STOP_TIMEOUT).build();
        System.out.println("Starting HBase in " + dataDirectory + " (kept between runs; log: " + server.logFile() + ") ...");
        hbase = start(server);
        if (stopping) {
            return 1; // Stopped while HBase was starting: EmbeddedHBase's own shutdown hook stops it.
        }
        String zookeeperQuorum = hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
        System.out.println("HBase is up (ZooKeeper " + zookeeperQuorum + "). Starting a Tomcat node and a Jetty node (logs: "
                + dataDirectory.resolve("logs") + ") ...");

        ShopNode.Webapp shop = ShopNode.Webapp.shop(war);
        ShopNode.Shared shared = new ShopNode.Shared(shop, zookeeperQuorum, KEY_SCOPE, dataDirectory);
        tomcat = ShopNode.start(NodeKind.TOMCAT, tomcatPort, shop.url(jettyPort), shared);
        jetty = ShopNode.start(NodeKind.JETTY, jettyPort, shop.url(tomcatPort), shared);
        String tomcatServer = tomcat.awaitServing(NODE_START_TIMEOUT);
        String jettyServer = jetty.awaitServing(NODE_START_TIMEOUT);

        System.out.println();
        System.out.println("The shop is open on two nodes that share their sessions through HBase (keyScope \"" + KEY_SCOPE + "\"):");
        System.out.println("  " + tomcat.url() + "   " + tomcatServer);
        System.out.println("  " + jetty.url() + "   " + jettyServer);
        System.out.println("Add to the cart on one, reload the other: same cart. Log in as alice, bob or carol (password demo).");
        System.out.println("Press Ctrl-C to stop everything; the sessions stay in HBase for the next run.");
        return superviseUntilStopped();
    }

    /** Until it is up, HBase is stopped by its own shutdown hook, not by {@link #stopEverything}. */
    private static EmbeddedHBase start(EmbeddedHBase server) {
        try {
            return server.start();
        } catch (EmbeddedHBaseException e) {
            throw new DemoException(e.getMessage());
        }
    }

    /**
     * Also ends the demo when the process that started it is gone (demo/run.sh killed without a chance
     * to forward the signal), like the nodes end when this launcher is gone.
     */
    private int superviseUntilStopped() throws InterruptedException {
        ProcessHandle starter = ProcessHandle.current().parent().orElseThrow();
        while (true) {
            Thread.sleep(LIVENESS_CHECK_MILLIS);
            if (stopping) {
                continue;
            }
            if (!starter.isAlive()) {
                throw new DemoException("The process that started the demo (pid " + starter.pid() + ") is gone");
            }
            if (!hbase.isRunning()) {
                throw new DemoException("HBase exited on its own: see " + hbase.logFile());
            }
            for (ShopNode node : new ShopNode[] {tomcat, jetty}) {
                if (!node.isAlive()) {
                    throw new DemoException("A node exited on its own: see " + node.log());
                }
            }
        }
    }

    /** Refuses at once what would fail later, before anything is started. */
    private void requireUsablePorts() {
        if (tomcatPort == jettyPort) {
            throw new DemoException("--tomcat-port and --jetty-port are both " + tomcatPort + ": give the nodes different ports");
        }
        requireFree(tomcatPort, "--tomcat-port");
        requireFree(jettyPort, "--jetty-port");
    }

    /** Binds the address the node binds; a listener on the wildcard address conflicts with it too. */
    private static void requireFree(int port, String option) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress("127.0.0.1", port));
        } catch (IOException e) {
            throw new DemoException("Port " + port + " is already in use: stop what listens on it, or choose another "
                    + "port with " + option);
        }
    }

    private static Path shopWar() {
        String war = System.getProperty("hbase.sessions.demo.war");
        if (war == null || !Path.of(war).toFile().isFile()) {
            throw new DemoException("The shop WAR (" + war + ") is missing: rebuild the demo (./demo.sh builds it)");
        }
        return Path.of(war);
    }

    /**
     * The nodes, then HBase with a clean cluster shutdown. (EmbeddedHBase's own shutdown hook may stop
     * HBase at the same time; the nodes keep nothing that is not stored already.)
     */
    private void stopEverything() {
        stopping = true;
        if (hbase == null) {
            return;
        }
        System.out.println("Stopping the nodes and HBase ...");
        for (ShopNode node : new ShopNode[] {tomcat, jetty}) {
            if (node != null) {
                node.stop();
            }
        }
        hbase.stop();
        System.out.println("Stopped. The sessions stay in " + dataDirectory + " for the next run.");
    }

    private static int printError(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) throws Exception {
        if (!(e instanceof DemoException)) {
            throw e;
        }
        PrintWriter err = commandLine.getErr();
        err.println("error: " + e.getMessage());
        err.flush();
        return 1;
    }
}
