package io.hbasesessions.demo;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.EmbeddedHBaseCluster;
import io.hbasesessions.embedded.EmbeddedHBaseException;
import io.hbasesessions.embedded.LocalHBase;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProcessException;
import io.hbasesessions.testing.NodeProgram;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.net.URI;
import java.time.Duration;
import java.util.List;
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

    private static final String CONTEXT_PATH = "/shop";
    /** The users the shop's login form names; they have no roles, the shop needs none. */
    private static final List<String> USERS = List.of("alice", "bob", "carol");
    private static final String PASSWORD = "demo";
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

    @Option(names = "--region-servers", paramLabel = "N",
            description = "Run HBase as a cluster: ZooKeeper, a master and N region servers, each its own JVM (logs in the "
                    + "data directory). Default: 0, one standalone HBase JVM.")
    int regionServers = 0;

    /** Set once HBase is up; the nodes are started after it. */
    private volatile LocalHBase hbase;
    private volatile NodeProcess tomcat;
    private volatile NodeProcess jetty;
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

        LocalHBase server = buildHBase();
        System.out.println("Starting HBase in " + dataDirectory + " (kept between runs; log: " + server.logFile() + ") ...");
        hbase = start(server);
        if (stopping) {
            return 1; // Stopped while HBase was starting: EmbeddedHBase's own shutdown hook stops it.
        }
        String zookeeperQuorum = hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
        System.out.println("HBase is up (ZooKeeper " + zookeeperQuorum + "). Starting a Tomcat node and a Jetty node (logs: "
                + dataDirectory.resolve("logs") + ") ...");

        tomcat = startNode(NodeProgram.TOMCAT_10_1, "tomcat-node", tomcatPort, jettyPort, war, zookeeperQuorum);
        jetty = startNode(NodeProgram.JETTY_12_1, "jetty-node", jettyPort, tomcatPort, war, zookeeperQuorum);
        awaitReady(tomcat);
        awaitReady(jetty);

        System.out.println();
        System.out.println("The shop is open on two nodes that share their sessions through HBase (keyScope "
                + CONTEXT_PATH + ", the default of both containers):");
        System.out.println("  " + tomcat.url() + "   " + tomcat.serverInfo());
        System.out.println("  " + jetty.url() + "   " + jetty.serverInfo());
        System.out.println("Add to the cart on one, reload the other: same cart. Log in as alice, bob or carol (password demo).");
        System.out.println("Press Ctrl-C to stop everything; the sessions stay in HBase for the next run.");
        return superviseUntilStopped();
    }

    /**
     * A node serving the shop at {@code /shop} with its sessions in HBase under the default keyScope; the
     * shop's page names the node and links to the other one. Its files and log go to the data directory.
     */
    private NodeProcess startNode(NodeProgram program, String name, int port, int otherPort, Path war,
            String zookeeperQuorum) {
        NodeProcess.Builder node = NodeProcess.builder(program)
                .war(war)
                .contextPath(CONTEXT_PATH)
                .port(port)
                .storeSetting("zookeeperQuorum", zookeeperQuorum)
                .systemProperty("hbase.sessions.demo.node", name)
                .systemProperty("hbase.sessions.demo.otherNode", shopUrl(otherPort).toString())
                .workDirectory(dataDirectory.resolve(name))
                .log(dataDirectory.resolve("logs").resolve(name + ".log"));
        USERS.forEach(user -> node.user(user, PASSWORD));
        try {
            return node.start();
        } catch (NodeProcessException e) {
            throw new DemoException(e.getMessage());
        }
    }

    private static void awaitReady(NodeProcess node) throws InterruptedException {
        try {
            node.awaitReady(NODE_START_TIMEOUT);
        } catch (NodeProcessException e) {
            throw new DemoException(e.getMessage());
        }
    }

    private static URI shopUrl(int port) {
        return URI.create("http://localhost:" + port + CONTEXT_PATH + "/");
    }

    /** The standalone server, or with {@code --region-servers} a cluster; a bad option is a DemoException. */
    private LocalHBase buildHBase() {
        try {
            return regionServers == 0
                    ? EmbeddedHBase.builder().dataDirectory(dataDirectory).zookeeperPort(zookeeperPort)
                            .stopTimeout(HBASE_STOP_TIMEOUT).build()
                    : EmbeddedHBaseCluster.builder().dataDirectory(dataDirectory).zookeeperPort(zookeeperPort)
                            .regionServers(regionServers).stopTimeout(HBASE_STOP_TIMEOUT).build();
        } catch (EmbeddedHBaseException e) {
            throw new DemoException(e.getMessage());
        }
    }

    /** Until it is up, HBase is stopped by its own shutdown hook, not by {@link #stopEverything}. */
    private static LocalHBase start(LocalHBase server) {
        try {
            return server.start();
        } catch (EmbeddedHBaseException e) {
            throw new DemoException(e.getMessage());
        }
    }

    /**
     * Also ends the demo when the process that started it is gone (killed without a chance to forward
     * the signal), like the nodes end when this launcher is gone.
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
            for (NodeProcess node : new NodeProcess[] {tomcat, jetty}) {
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
        for (NodeProcess node : new NodeProcess[] {tomcat, jetty}) {
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
