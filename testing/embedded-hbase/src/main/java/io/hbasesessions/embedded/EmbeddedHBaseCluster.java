package io.hbasesessions.embedded;

import io.hbasesessions.embedded.ServerCommandLine.ClusterSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;

/**
 * A real HBase 2.6 cluster on 127.0.0.1: one ZooKeeper, one master and N region servers (default 3),
 * each a separate child JVM with its own log, in distributed mode on the local file system of one
 * data directory, which is kept between runs.
 *
 * <pre>{@code
 * try (EmbeddedHBaseCluster cluster = EmbeddedHBaseCluster.builder().dataDirectory(dir).build().start()) {
 *   cluster.killRegionServer(cluster.regionServerHosting(table, row));   // kill -9
 *   cluster.awaitAllRegionsAssigned(table, Duration.ofMinutes(1));       // the master reassigned them
 *   cluster.restartRegionServer(0);
 * }
 * }</pre>
 *
 * <p>Region servers are numbered from 0. Nothing outlives the parent, as with {@link EmbeddedHBase}:
 * {@link #stop()}, a JVM shutdown hook, and {@link ParentWatchdog} in every child. Starting, stopping
 * and waiting fail with an {@link EmbeddedHBaseException}; a question to the running cluster that
 * HBase cannot answer (where a row is, the master's metrics) with an {@link UncheckedIOException}.
 */
public final class EmbeddedHBaseCluster extends ServerLauncher {

    private static final Duration POLL_INTERVAL = Duration.ofMillis(250);
    /** ZooKeeper stops within a second of SIGTERM; this is the margin before it is killed. */
    private static final Duration ZOOKEEPER_STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final String ZOOKEEPER = "zookeeper";
    private static final String MASTER = "master";

    private final int masterHeapMegabytes;
    private final int regionServerHeapMegabytes;
    private final Duration zookeeperSessionTimeout;
    private final boolean regionReplicaReplication;
    private final int[] regionServerPorts;
    private final ServerJvm[] regionServers;

    private ClusterSettings settings;
    private Path javaExecutable;
    private String classpath;
    private ServerJvm zookeeper;
    private ServerJvm master;
    /** The launcher's own fail-fast connection, open while the cluster runs. */
    private Connection control;

    private EmbeddedHBaseCluster(Builder builder) {
        super(builder);
        masterHeapMegabytes = builder.masterHeapMegabytes;
        regionServerHeapMegabytes = builder.regionServerHeapMegabytes;
        zookeeperSessionTimeout = builder.zookeeperSessionTimeout;
        regionReplicaReplication = builder.regionReplicaReplication;
        regionServerPorts = new int[builder.regionServers];
        regionServers = new ServerJvm[builder.regionServers];
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts ZooKeeper, the master and every region server, and returns once every region server has
     * registered and a table round trip succeeds. Does nothing if the master runs.
     */
    @Override
    public EmbeddedHBaseCluster start() {
        startProcesses();
        return this;
    }

    /** ZooKeeper and the master run; region servers may have been killed. */
    @Override
    public synchronized boolean isRunning() {
        return master != null && master.isAlive() && zookeeper.isAlive();
    }

    /** The master's log: assignments, region server expiry and shutdown are logged there. */
    @Override
    public Path logFile() {
        return directory.logFile(MASTER);
    }

    public Path zookeeperLogFile() {
        return directory.logFile(ZOOKEEPER);
    }

    public Path regionServerLogFile(int index) {
        return directory.logFile(regionServerName(index));
    }

    /** How many region servers the cluster was built with, running or not. */
    public int regionServerCount() {
        return regionServers.length;
    }

    public synchronized boolean isRegionServerRunning(int index) {
        ServerJvm regionServer = regionServers[checkIndex(index)];
        return regionServer != null && regionServer.isAlive();
    }

    /** The pids of ZooKeeper, the master and the region servers, while they run. */
    @Override
    public synchronized List<Long> pids() {
        List<Long> pids = new ArrayList<>();
        for (ServerJvm process : processes()) {
            pids.add(process.pid());
        }
        return pids;
    }

    /**
     * {@code kill -9} of one region server, as a crash: its ZooKeeper session expires after
     * {@code zookeeperSessionTimeout}, then the master splits its WAL and reassigns its regions.
     */
    public synchronized void killRegionServer(int index) {
        requireRunning();
        regionServers[checkIndex(index)].kill();
    }

    /**
     * Waits until the master no longer counts region server {@code index} live: after a kill, once its
     * ZooKeeper session expired and the master began recovering its regions.
     */
    public void awaitRegionServerExpired(int index, Duration timeout) {
        int port = regionServerPorts[checkIndex(index)];
        awaitCondition(Instant.now().plus(timeout), "the master to count region server " + index + " dead",
                () -> liveServers().keySet().stream().noneMatch(server -> server.getPort() == port), List.of());
    }

    /**
     * {@code kill -STOP} of one region server: it stays live for the master and ZooKeeper but answers
     * nothing, as in a long GC pause or a hung disk, until {@link #resumeRegionServer}. Resume it within
     * {@code zookeeperSessionTimeout}, or the master declares it dead and it aborts when resumed. Call
     * {@code resumeRegionServer} in a {@code finally}.
     */
    public synchronized void suspendRegionServer(int index) {
        requireRunning();
        regionServers[checkIndex(index)].signal("STOP");
    }

    /** {@code kill -CONT} of a region server {@link #suspendRegionServer suspended}; harmless on a running one. */
    public synchronized void resumeRegionServer(int index) {
        requireRunning();
        regionServers[checkIndex(index)].signal("CONT");
    }

    /**
     * Starts region server {@code index} again on its port (killing it first if it runs) and returns
     * once the master counts it live (within {@code startTimeout}). It serves no region until the master
     * moves some to it: {@link #balance}.
     */
    public synchronized void restartRegionServer(int index) {
        requireRunning();
        ServerJvm old = regionServers[checkIndex(index)];
        if (old.isAlive()) {
            old.kill();
        }
        long launchedMillis = System.currentTimeMillis();
        regionServers[index] = launchRegionServer(index);
        int port = regionServerPorts[index];
        awaitCondition(Instant.now().plus(startTimeout), "region server " + index + " to register with the master",
                () -> liveServers().keySet().stream()
                        .anyMatch(server -> server.getPort() == port && server.getStartcode() >= launchedMillis),
                List.of(regionServers[index]));
    }

    /** The index of the region server that hosts {@code row} of {@code table}, read from hbase:meta. */
    public int regionServerHosting(TableName table, byte[] row) {
        try (RegionLocator locator = control().getRegionLocator(table)) {
            return indexOf(locator.getRegionLocation(row, true).getServerName());
        } catch (IOException e) {
            throw failed("locate a row of " + table, e);
        }
    }

    /** How many regions of {@code table} each region server hosts (index to count, every index present). */
    public Map<Integer, Integer> regionsPerRegionServer(TableName table) {
        Map<Integer, Integer> regions = perRegionServer(0);
        for (HRegionLocation location : regionLocations(table)) {
            regions.merge(indexOf(location.getServerName()), 1, Integer::sum);
        }
        return regions;
    }

    /**
     * The read and write requests the regions of {@code table} have served on each running region
     * server, from the metrics the region servers report to the master every 500 ms. A region's count
     * starts again at 0 where it is opened, after a move or a crash.
     */
    public Map<Integer, Long> requestsPerRegionServer(TableName table) {
        Map<Integer, Long> requests = perRegionServer(0L);
        liveServers().forEach((server, metrics) -> {
            int index = indexOf(server);
            if (isRegionServerRunning(index)) {
                requests.merge(index, requestsOf(table, metrics), Long::sum);
            }
        });
        return requests;
    }

    /**
     * Waits until every region of {@code table} is open on a running region server that the master
     * counts live, and none is in transition: after a create, a balance, or the death of a region server.
     */
    public void awaitAllRegionsAssigned(TableName table, Duration timeout) {
        awaitCondition(Instant.now().plus(timeout), "every region of " + table + " to be assigned",
                () -> allRegionsAssigned(table), List.of());
    }

    /**
     * Runs the master's balancer (retrying while regions are in transition, when it refuses to run), then
     * waits until every region of {@code table} is assigned again.
     */
    public void balance(TableName table, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        awaitCondition(deadline, "the balancer to run", () -> {
            try (Admin admin = control().getAdmin()) {
                admin.balancerSwitch(true, true);
                return admin.balance();
            }
        }, List.of());
        awaitCondition(deadline, "every region of " + table + " to be assigned after balancing",
                () -> allRegionsAssigned(table), List.of());
    }

    @Override
    void launchAndAwaitReady(Path javaExecutable, String classpath) {
        this.javaExecutable = javaExecutable;
        this.classpath = classpath;
        Instant deadline = Instant.now().plus(startTimeout);
        launchAll(deadline);
        awaitReady(deadline);
        try {
            control = new ControlClient(clientProperties()).connect();
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot connect to the cluster that just came up (" + e + "): see " + logFile(), e);
        }
    }

    @Override
    boolean launched() {
        return zookeeper != null;
    }

    /** A clean cluster shutdown by the master, then ZooKeeper; what still runs at the deadline is killed. */
    @Override
    void stopProcesses(Instant deadline) {
        closeControlConnection();
        if (master != null && master.isAlive()) {
            requestClusterShutdown();
        }
        for (ServerJvm process : processes()) {
            if (process != zookeeper) {
                process.awaitExitOrKill(deadline);
            }
        }
        zookeeper.terminate();
        zookeeper.awaitExitOrKill(Instant.now().plus(ZOOKEEPER_STOP_TIMEOUT));
    }

    @Override
    void killProcesses() {
        closeControlConnection();
        processes().forEach(ServerJvm::kill);
    }

    @Override
    void forgetProcesses() {
        zookeeper = null;
        master = null;
        Arrays.fill(regionServers, null);
    }

    private void launchAll(Instant deadline) {
        int zookeeperPort = zookeeperPort();
        settings = new ClusterSettings(zookeeperPort, ZookeeperPort.pickFree(), zookeeperSessionTimeout,
                regionReplicaReplication);
        for (int i = 0; i < regionServerPorts.length; i++) {
            regionServerPorts[i] = ZookeeperPort.pickFree();
        }
        Path zookeeperConfiguration = directory.writeConfigurationFile("zoo.cfg",
                ServerCommandLine.zookeeperConfiguration(directory, zookeeperPort));
        zookeeper = launch(ServerCommandLine.zookeeperCommand(javaExecutable, jvmOptions, classpath, zookeeperConfiguration),
                zookeeperLogFile(), "zookeeperPort=" + zookeeperPort);
        awaitZookeeper(deadline);
        master = launch(ServerCommandLine.masterCommand(javaExecutable, masterHeapMegabytes, jvmOptions, classpath,
                settings, directory, MASTER, regionServers.length), logFile(),
                "masterPort=" + settings.masterPort() + " heapMegabytes=" + masterHeapMegabytes);
        for (int i = 0; i < regionServers.length; i++) {
            regionServers[i] = launchRegionServer(i);
        }
    }

    private ServerJvm launchRegionServer(int index) {
        String name = regionServerName(index);
        return launch(ServerCommandLine.regionServerCommand(javaExecutable, regionServerHeapMegabytes, jvmOptions,
                classpath, settings, directory, name, regionServerPorts[index]), directory.logFile(name), "port=" + regionServerPorts[index] + " heapMegabytes=" + regionServerHeapMegabytes);
    }

    /** The master gives up after a few failed connection attempts: ZooKeeper must listen first. */
    private void awaitZookeeper(Instant deadline) {
        int port = zookeeperPort();
        awaitCondition(deadline, "ZooKeeper to listen on port " + port, () -> {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(ServerCommandLine.LOOPBACK, port), 1_000);
                return true;
            } catch (IOException notYet) {
                return false;
            }
        }, List.of(zookeeper));
    }

    private void awaitReady(Instant deadline) {
        ControlClient client = new ControlClient(clientProperties());
        ReadinessProbe probe = new ReadinessProbe(() -> {
            client.requireLiveRegionServers(regionServers.length);
            client.probeMasterAndTable();
        });
        switch (await(probe, processes(), deadline)) {
            case READY -> { }
            case SERVER_EXITED -> throw exitedWhileStarting(processes());
            case TIMED_OUT -> throw new EmbeddedHBaseException("The HBase cluster did not come up within " + startTimeout
                    + ": allow a longer startTimeout, or see the logs in " + logFile().getParent() + " (last probe failure: "
                    + probe.lastFailure() + "); the master's last lines:\n" + DataDirectory.logTail(logFile(), LOG_TAIL_LINES));
        }
    }

    /**
     * Polls {@code condition} until it holds; fails when {@code deadline} passes or one of {@code watched}
     * exits. A failing call of the condition counts as "not yet".
     */
    private void awaitCondition(Instant deadline, String what, Condition condition, List<ServerJvm> watched) {
        Exception lastFailure = null;
        while (true) {
            try {
                if (condition.holds()) {
                    return;
                }
            } catch (IOException | UncheckedIOException e) {
                lastFailure = e;
            }
            if (!watched.stream().allMatch(ServerJvm::isAlive)) {
                throw exitedWhileStarting(watched);
            }
            if (Instant.now().isAfter(deadline)) {
                throw new EmbeddedHBaseException("Timed out waiting for " + what + " (last failure: " + lastFailure
                        + "): see the logs in " + logFile().getParent());
            }
            sleep(POLL_INTERVAL);
        }
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws IOException;
    }

    private EmbeddedHBaseException exitedWhileStarting(List<ServerJvm> watched) {
        ServerJvm exited = watched.stream().filter(process -> !process.isAlive()).findFirst().orElseThrow();
        String logTail = DataDirectory.logTail(exited.logFile(), LOG_TAIL_LINES);
        if (exited == zookeeper && logTail.contains("Address already in use")) {
            return ZookeeperPort.inUse(zookeeperPort());
        }
        return new EmbeddedHBaseException("A process of the HBase cluster exited while starting (exit code "
                + exited.exitCode() + "): see its output below, or in " + exited.logFile() + "\n" + logTail);
    }

    private boolean allRegionsAssigned(TableName table) throws IOException {
        Map<ServerName, ServerMetrics> live = liveServers();
        for (HRegionLocation location : regionLocations(table)) {
            ServerName server = location.getServerName();
            if (server == null || !live.containsKey(server) || !isRegionServerRunning(indexOf(server))) {
                return false;
            }
        }
        try (Admin admin = control().getAdmin()) {
            return admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
                    .getRegionStatesInTransition().stream()
                    .noneMatch(state -> state.getRegion().getTable().equals(table));
        }
    }

    private List<HRegionLocation> regionLocations(TableName table) {
        try (RegionLocator locator = control().getRegionLocator(table)) {
            return locator.getAllRegionLocations();
        } catch (IOException e) {
            throw failed("read the regions of " + table, e);
        }
    }

    private Map<ServerName, ServerMetrics> liveServers() {
        try (Admin admin = control().getAdmin()) {
            return admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS)).getLiveServerMetrics();
        } catch (IOException e) {
            throw failed("ask the master for its live region servers", e);
        }
    }

    private static long requestsOf(TableName table, ServerMetrics metrics) {
        return metrics.getRegionMetrics().values().stream()
                .filter(region -> RegionInfo.getTable(region.getRegionName()).equals(table))
                .mapToLong(region -> region.getReadRequestCount() + region.getWriteRequestCount())
                .sum();
    }

    private <V> Map<Integer, V> perRegionServer(V initial) {
        Map<Integer, V> values = new TreeMap<>();
        IntStream.range(0, regionServers.length).forEach(index -> values.put(index, initial));
        return values;
    }

    private int indexOf(ServerName server) {
        for (int i = 0; i < regionServerPorts.length; i++) {
            if (regionServerPorts[i] == server.getPort()) {
                return i;
            }
        }
        throw new EmbeddedHBaseException(server + " is not a region server of this cluster (ports "
                + Arrays.toString(regionServerPorts) + ")");
    }

    private synchronized Connection control() {
        requireRunning();
        return control;
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new EmbeddedHBaseException("The HBase cluster is not running: call start() first");
        }
    }

    private int checkIndex(int index) {
        if (index < 0 || index >= regionServers.length) {
            throw new EmbeddedHBaseException("No region server " + index + ": this cluster has region servers 0 to "
                    + (regionServers.length - 1));
        }
        return index;
    }

    /** Hard failures of the control connection while the cluster runs; "not yet" answers are awaited instead. */
    private static UncheckedIOException failed(String what, IOException cause) {
        return new UncheckedIOException("Cannot " + what + ": " + cause.getMessage(), cause);
    }

    private static String regionServerName(int index) {
        return "regionserver-" + index;
    }

    private List<ServerJvm> processes() {
        List<ServerJvm> processes = new ArrayList<>();
        processes.add(zookeeper);
        processes.add(master);
        processes.addAll(Arrays.asList(regionServers));
        processes.removeIf(Objects::isNull);
        return processes;
    }

    private void closeControlConnection() {
        if (control == null) {
            return;
        }
        try {
            control.close();
        } catch (IOException ignored) {
            // Closing only releases this JVM's resources.
        }
        control = null;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedHBaseException("Interrupted while waiting for the HBase cluster", e);
        }
    }

    /** Settings of an {@link EmbeddedHBaseCluster}; only {@link #dataDirectory(Path)} is required. Default start timeout: 120 s. */
    public static final class Builder extends LauncherBuilder<Builder> {

        private static final int MAXIMUM_REGION_SERVERS = 9;

        private int regionServers = 3;
        private int masterHeapMegabytes = 256;
        private int regionServerHeapMegabytes = 320;
        private Duration zookeeperSessionTimeout = Duration.ofSeconds(10);
        private boolean regionReplicaReplication;

        private Builder() {
            super(Duration.ofSeconds(120));
        }

        @Override
        Builder self() {
            return this;
        }

        /** How many region servers, each its own JVM; default 3. */
        public Builder regionServers(int regionServers) {
            if (regionServers < 1 || regionServers > MAXIMUM_REGION_SERVERS) {
                throw new EmbeddedHBaseException("regionServers must be 1 to " + MAXIMUM_REGION_SERVERS + ", not " + regionServers);
            }
            this.regionServers = regionServers;
            return this;
        }

        /** The master's heap (-Xms and -Xmx); default 256: it serves no user region. */
        public Builder masterHeapMegabytes(int masterHeapMegabytes) {
            this.masterHeapMegabytes = checkHeapMegabytes("masterHeapMegabytes", masterHeapMegabytes);
            return this;
        }

        /** Each region server's heap (-Xms and -Xmx); default 320, so 3 of them and a master fit beside tests on 2 cores. */
        public Builder regionServerHeapMegabytes(int regionServerHeapMegabytes) {
            this.regionServerHeapMegabytes = checkHeapMegabytes("regionServerHeapMegabytes", regionServerHeapMegabytes);
            return this;
        }

        /**
         * The ZooKeeper session timeout of the master and region servers: how long a killed region server
         * is still counted live, before the master reassigns its regions. Default 10 s (HBase's own: 90 s);
         * 1 to 90 s. Shorter detects a crash sooner but expires a region server that pauses that long.
         */
        public Builder zookeeperSessionTimeout(Duration zookeeperSessionTimeout) {
            if (zookeeperSessionTimeout.compareTo(Duration.ofSeconds(1)) < 0
                    || zookeeperSessionTimeout.compareTo(Duration.ofSeconds(90)) > 0) {
                throw new EmbeddedHBaseException("zookeeperSessionTimeout must be 1 to 90 s (ZooKeeper's bounds here), not "
                        + zookeeperSessionTimeout);
            }
            this.zookeeperSessionTimeout = zookeeperSessionTimeout;
            return this;
        }

        /**
         * Turns on region replica replication on the master and every region server
         * ({@code hbase.region.replica.replication.enabled=true}): the secondary replicas of a table with
         * {@code REGION_REPLICATION > 1} follow their primary's edits within about a second, instead of
         * seeing only what the primary flushed when they opened. Default off, as in HBase.
         */
        public Builder regionReplicaReplication(boolean regionReplicaReplication) {
            this.regionReplicaReplication = regionReplicaReplication;
            return this;
        }

        public EmbeddedHBaseCluster build() {
            requireDataDirectory();
            return new EmbeddedHBaseCluster(this);
        }
    }
}
