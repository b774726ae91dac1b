package io.hbasesessions.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * A real standalone HBase 2.6 server (master, region server and ZooKeeper in one JVM) on 127.0.0.1,
 * run as a child process with its own data directory, which is kept between runs.
 *
 * <pre>{@code
 * try (EmbeddedHBase hbase = EmbeddedHBase.builder().dataDirectory(dir).build().start()) {
 *   Connection connection = ConnectionFactory.createConnection(hbase.clientConfiguration());
 *   ...
 * }
 * }</pre>
 *
 * <p>No server outlives its parent: {@link #stop()} stops it, a JVM shutdown hook stops it when the
 * parent exits, and the server itself exits when the parent dies without running hooks (see
 * {@link ParentWatchdog}). The server's classpath stays in the child; this JVM needs only the shaded
 * client. Every failure is an {@link EmbeddedHBaseException} that says what to do.
 */
public final class EmbeddedHBase extends ServerLauncher {

    /** Printed by HMasterCommandLine when another process took the port between our check and its bind. */
    private static final String PORT_IN_USE_SIGN = "Could not start ZK at requested port";

    private final int heapMegabytes;
    private final Map<String, String> serverSettings;

    private ServerJvm server;
    private long pid = -1;
    /** The pid of a server another JVM launched ({@link #running}); -1 for a server this object launches. */
    private long launchedElsewhere = -1;

    private EmbeddedHBase(Builder builder) {
        super(builder);
        heapMegabytes = builder.heapMegabytes;
        serverSettings = builder.serverSettings;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A server another JVM launched and still runs, on {@code dataDirectory} and {@code zookeeperPort}: this
     * object reaches it but never stops it ({@link #stop()} does nothing).
     */
    static EmbeddedHBase running(Path dataDirectory, int zookeeperPort, long pid) {
        EmbeddedHBase hbase = builder().dataDirectory(dataDirectory).zookeeperPort(zookeeperPort).build();
        hbase.launchedElsewhere = pid;
        hbase.pid = pid;
        return hbase;
    }

    /**
     * Starts the server and returns once a table operation succeeds through the HBase client. Does
     * nothing if it is running. A restart uses the same data directory and ZooKeeper port.
     */
    @Override
    public EmbeddedHBase start() {
        startProcesses();
        return this;
    }

    @Override
    public synchronized boolean isRunning() {
        if (launchedElsewhere != -1) {
            return ProcessHandle.of(launchedElsewhere).map(ProcessHandle::isAlive).orElse(false);
        }
        return server != null && server.isAlive();
    }

    /** The pid of the server process that runs or ran last; -1 before the first start. */
    public synchronized long pid() {
        return pid;
    }

    @Override
    public synchronized List<Long> pids() {
        return pid == -1 ? List.of() : List.of(pid);
    }

    /** HBase's {@code hbase.rootdir}: table files live under {@code data/<namespace>/<table>} in it. */
    public Path rootDirectory() {
        return directory.hbaseRoot();
    }

    /** The server's output (stdout and stderr), appended at every start after a line naming the command. */
    @Override
    public Path logFile() {
        return directory.logFile();
    }

    @Override
    void launchAndAwaitReady(Path javaExecutable, String classpath) {
        int port = zookeeperPort();
        server = launch(ServerCommandLine.startCommand(javaExecutable, heapMegabytes, jvmOptions, classpath, owner, directory,
                port, serverSettings), logFile(), "zookeeperPort=" + port + " heapMegabytes=" + heapMegabytes);
        pid = server.pid();
        ReadinessProbe probe = new ReadinessProbe(new ControlClient(clientProperties())::probeMasterAndTable);
        switch (await(probe, List.of(server), Instant.now().plus(startTimeout))) {
            case READY -> { }
            case SERVER_EXITED -> throw serverExited();
            case TIMED_OUT -> throw startTimedOut(probe.lastFailure());
        }
    }

    @Override
    boolean launched() {
        return server != null;
    }

    /** A clean cluster shutdown (the master stops its region server and ZooKeeper), or a kill at the deadline. */
    @Override
    void stopProcesses(Instant deadline) {
        if (server.isAlive()) {
            requestClusterShutdown();
        }
        server.awaitExitOrKill(deadline);
    }

    @Override
    void killProcesses() {
        if (server != null) {
            server.kill();
        }
    }

    @Override
    void forgetProcesses() {
        server = null;
    }

    private EmbeddedHBaseException serverExited() {
        String logTail = DataDirectory.logTail(logFile(), LOG_TAIL_LINES);
        if (logTail.contains(PORT_IN_USE_SIGN)) {
            return ZookeeperPort.inUse(zookeeperPort());
        }
        return new EmbeddedHBaseException("HBase exited while starting (exit code " + server.exitCode() + "): see its "
                + "output below, or in " + logFile() + "\n" + logTail);
    }

    private EmbeddedHBaseException startTimedOut(Exception lastProbeFailure) {
        return new EmbeddedHBaseException("HBase did not come up within " + startTimeout + ": allow a longer "
                + "startTimeout, or see the last lines of " + logFile() + " below (last probe failure: "
                + lastProbeFailure + ")\n" + DataDirectory.logTail(logFile(), LOG_TAIL_LINES));
    }

    /** Settings of an {@link EmbeddedHBase}; only {@link #dataDirectory(Path)} is required. Default start timeout: 90 s. */
    public static final class Builder extends LauncherBuilder<Builder> {

        private int heapMegabytes = 512;
        private Map<String, String> serverSettings = Map.of();

        private Builder() {
            super(Duration.ofSeconds(90));
        }

        @Override
        Builder self() {
            return this;
        }

        /** The server's heap (-Xms and -Xmx); default 512. */
        public Builder heapMegabytes(int heapMegabytes) {
            this.heapMegabytes = checkHeapMegabytes("heapMegabytes", heapMegabytes);
            return this;
        }

        /**
         * HBase settings of the server ({@code hbase-site.xml} names and values, such as
         * {@code hbase.regionserver.handler.count}) on top of the embedded ones; default none. Benchmarks
         * size the server for the machine with them.
         */
        public Builder serverSettings(Map<String, String> serverSettings) {
            this.serverSettings = Map.copyOf(serverSettings);
            return this;
        }

        public EmbeddedHBase build() {
            requireDataDirectory();
            return new EmbeddedHBase(this);
        }
    }
}
