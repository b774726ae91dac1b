package io.hbasesessions.embedded;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Runs an embedded HBase, standalone or a cluster, until Ctrl-C, for the demo and benchmarks. The data
 * directory is kept, so sessions survive a restart.
 */
@Command(name = "embedded-hbase",
        description = "Starts a standalone HBase 2.6 server (or, with --region-servers, a cluster) on 127.0.0.1 and runs it until Ctrl-C.")
public final class EmbeddedHBaseMain implements Callable<Integer> {

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean helpRequested;

    private static final long LIVENESS_CHECK_MILLIS = 1_000;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Tables, ZooKeeper state and log; kept between runs. Default: ${DEFAULT-VALUE}")
    Path dataDirectory = Path.of(System.getProperty("user.home"), ".hbase-sessions", "embedded");

    @Option(names = "--zookeeper-port", paramLabel = "PORT",
            description = "ZooKeeper client port; 0 picks a free one. Default: ${DEFAULT-VALUE}, ZooKeeper's usual port.")
    int zookeeperPort = 2181;

    @Option(names = "--heap-mb", paramLabel = "MB",
            description = "Heap in MiB of the standalone server, or of each region server of a cluster. Default: 512 standalone, 320 per region server.")
    Integer heapMegabytes;

    @Option(names = "--region-servers", paramLabel = "N",
            description = "Run a cluster instead of the standalone server: ZooKeeper, a master and N region servers, "
                    + "each its own JVM with its own log. Default: 0, the standalone server.")
    int regionServers;

    @Option(names = "--region-replica-replication",
            description = "With --region-servers: secondary region replicas follow their primary's edits "
                    + "(hbase.region.replica.replication.enabled=true on every server), for tables with REGION_REPLICATION > 1.")
    boolean regionReplicaReplication;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    static CommandLine commandLine() {
        return new CommandLine(new EmbeddedHBaseMain()).setExecutionExceptionHandler(EmbeddedHBaseMain::printError);
    }

    /** Set by Ctrl-C, so that the end of the server is not reported as a failure. */
    private volatile boolean stopRequested;

    /** Blocks until Ctrl-C, or until the server exits on its own, which is a failure. */
    @Override
    public Integer call() throws InterruptedException {
        if (regionReplicaReplication && regionServers == 0) {
            throw new EmbeddedHBaseException("--region-replica-replication needs a cluster: add --region-servers N "
                    + "(a standalone server has one region server, so a table cannot have a second replica)");
        }
        LocalHBase hbase = regionServers == 0 ? standalone() : cluster();
        System.out.println("Starting HBase in " + hbase.dataDirectory() + " (log: " + hbase.logFile() + ") ...");
        // Registered before the start: a Ctrl-C while HBase starts must stop it too.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stopOnCtrlC(hbase), "embedded-hbase-ctrl-c"));
        hbase.start();
        System.out.println("HBase is up: zookeeperQuorum=" + hbase.zookeeperQuorum() + " zookeeperPort="
                + hbase.zookeeperPort() + " data=" + hbase.dataDirectory() + " pids=" + hbase.pids());
        System.out.println("Press Ctrl-C to stop it.");
        while (hbase.isRunning() || stopRequested) {
            Thread.sleep(LIVENESS_CHECK_MILLIS);
        }
        System.err.println("error: HBase exited on its own: see " + hbase.logFile());
        return 1;
    }

    private EmbeddedHBase standalone() {
        EmbeddedHBase.Builder builder = EmbeddedHBase.builder().dataDirectory(dataDirectory).zookeeperPort(zookeeperPort);
        if (heapMegabytes != null) {
            builder.heapMegabytes(heapMegabytes);
        }
        return builder.build();
    }

    private EmbeddedHBaseCluster cluster() {
        EmbeddedHBaseCluster.Builder builder = EmbeddedHBaseCluster.builder().dataDirectory(dataDirectory)
                .zookeeperPort(zookeeperPort).regionServers(regionServers)
                .regionReplicaReplication(regionReplicaReplication);
        if (heapMegabytes != null) {
            builder.regionServerHeapMegabytes(heapMegabytes);
        }
        return builder.build();
    }

    private void stopOnCtrlC(LocalHBase hbase) {
        stopRequested = true;
        System.out.println("Stopping HBase ...");
        hbase.stop();
        System.out.println("HBase stopped; its data stays in " + hbase.dataDirectory());
    }

    private static int printError(Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) throws Exception {
        if (!(e instanceof EmbeddedHBaseException)) {
            throw e;
        }
        PrintWriter err = commandLine.getErr();
        err.println("error: " + e.getMessage());
        err.flush();
        return 1;
    }
}
