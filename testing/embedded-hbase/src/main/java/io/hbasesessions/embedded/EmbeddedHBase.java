package io.hbasesessions.embedded;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

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
public final class EmbeddedHBase implements LocalHBase {

    static final int LOG_TAIL_LINES = 30;
    /** Printed by HMasterCommandLine when another process took the port between our check and its bind. */
    private static final String PORT_IN_USE_SIGN = "Could not start ZK at requested port";

    private final DataDirectory directory;
    private final Path javaHome;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    private final int heapMegabytes;
    private final List<String> jvmOptions;

    private int zookeeperPort;
    /** False while a free port is still to be picked: until the first start that came up. */
    private boolean zookeeperPortFixed;
    private ServerJvm server;
    private long pid = -1;
    private FileLock directoryLock;
    private final ShutdownHook shutdownHook = new ShutdownHook();

    private EmbeddedHBase(Builder builder) {
        directory = new DataDirectory(builder.dataDirectory);
        javaHome = builder.javaHome;
        startTimeout = builder.startTimeout;
        stopTimeout = builder.stopTimeout;
        heapMegabytes = builder.heapMegabytes;
        jvmOptions = builder.jvmOptions;
        zookeeperPort = builder.zookeeperPort;
        zookeeperPortFixed = zookeeperPort != 0;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts the server and returns once a table operation succeeds through the HBase client. Does
     * nothing if it is running. A restart uses the same data directory and ZooKeeper port.
     */
    @Override
    public synchronized EmbeddedHBase start() {
        if (isRunning()) {
            return this;
        }
        stop(); // a server that exited on its own still holds the directory lock
        Path javaExecutable = JavaRuntime.requireSupported(javaHome);
        String classpath = ServerClasspath.build(directory.configuration());
        directory.createDirectories();
        FileLock lock = directory.lock();
        try {
            launchAndAwaitReady(javaExecutable, classpath);
            directoryLock = lock;
            zookeeperPortFixed = true;
            return this;
        } catch (RuntimeException e) {
            killServer();
            server = null;
            DataDirectory.release(lock);
            throw e;
        }
    }

    /**
     * Stops the server cleanly, and kills it if it is still running after {@code stopTimeout}. Does
     * nothing if it is not running.
     */
    @Override
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        try {
            stopServer();
        } finally {
            server = null;
            DataDirectory.release(directoryLock);
            directoryLock = null;
            shutdownHook.remove();
        }
    }

    @Override
    public synchronized boolean isRunning() {
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

    /** The ZooKeeper client port; 0 if a free port is to be picked and the server has not started yet. */
    @Override
    public synchronized int zookeeperPort() {
        return zookeeperPort;
    }

    @Override
    public Path dataDirectory() {
        return directory.root();
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

    private void launchAndAwaitReady(Path javaExecutable, String classpath) {
        zookeeperPort = chooseZookeeperPort();
        directory.writeLoggingConfiguration();
        server = ServerJvm.launch(ServerCommandLine.startCommand(javaExecutable, heapMegabytes, jvmOptions, classpath,
                directory, zookeeperPort), directory, logFile(), "zookeeperPort=" + zookeeperPort + " heapMegabytes=" + heapMegabytes);
        pid = server.pid();
        shutdownHook.register("embedded-hbase-stop", this::stop);
        awaitReady();
    }

    private int chooseZookeeperPort() {
        if (!zookeeperPortFixed) {
            return ZookeeperPort.pickFree();
        }
        ZookeeperPort.requireFree(zookeeperPort);
        return zookeeperPort;
    }

    private void awaitReady() {
        ReadinessProbe probe = new ReadinessProbe(new ControlClient(clientProperties())::probeMasterAndTable);
        ReadinessProbe.Outcome outcome;
        try {
            outcome = probe.await(List.of(server.process()), Instant.now().plus(startTimeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedHBaseException("Interrupted while waiting for HBase to start: the server was killed", e);
        }
        switch (outcome) {
            case READY -> { }
            case SERVER_EXITED -> throw serverExited();
            case TIMED_OUT -> throw startTimedOut(probe.lastFailure());
        }
    }

    private EmbeddedHBaseException serverExited() {
        String logTail = DataDirectory.logTail(logFile(), LOG_TAIL_LINES);
        if (logTail.contains(PORT_IN_USE_SIGN)) {
            return ZookeeperPort.inUse(zookeeperPort);
        }
        return new EmbeddedHBaseException("HBase exited while starting (exit code " + server.exitCode() + "): see its "
                + "output below, or in " + logFile() + "\n" + logTail);
    }

    private EmbeddedHBaseException startTimedOut(Exception lastProbeFailure) {
        return new EmbeddedHBaseException("HBase did not come up within " + startTimeout + ": allow a longer "
                + "startTimeout, or see the last lines of " + logFile() + " below (last probe failure: "
                + lastProbeFailure + ")\n" + DataDirectory.logTail(logFile(), LOG_TAIL_LINES));
    }

    private void stopServer() {
        Instant deadline = Instant.now().plus(stopTimeout);
        if (server.isAlive()) {
            requestClusterShutdown();
        }
        server.awaitExitOrKill(deadline);
    }

    /** Best effort: if the request fails, the hard kill after stopTimeout still ends the server. */
    private void requestClusterShutdown() {
        try {
            new ControlClient(clientProperties()).shutdownCluster();
        } catch (IOException | RuntimeException e) {
            // The server may drop the connection before it answers; a dead server cannot answer at all.
        }
    }

    private void killServer() {
        if (server != null) {
            server.kill();
            shutdownHook.remove();
        }
    }

    /** Settings of an {@link EmbeddedHBase}; only {@link #dataDirectory(Path)} is required. */
    public static final class Builder {

        private Path dataDirectory;
        private int zookeeperPort;
        private Path javaHome = Path.of(System.getProperty("java.home"));
        private Duration startTimeout = Duration.ofSeconds(90);
        private Duration stopTimeout = Duration.ofSeconds(30);
        private int heapMegabytes = 512;
        private List<String> jvmOptions = ServerCommandLine.QUICK_START_OPTIONS;

        private Builder() {
        }

        /** Where HBase keeps its tables, ZooKeeper state, configuration and log; kept between runs. Required. */
        public Builder dataDirectory(Path dataDirectory) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
            return this;
        }

        /** The ZooKeeper client port; 0 (the default) picks a free port at the first start, reused by restarts. */
        public Builder zookeeperPort(int zookeeperPort) {
            this.zookeeperPort = BuilderChecks.zookeeperPort(zookeeperPort);
            return this;
        }

        /** The JDK that runs the server (17 to 21); default: the one running this JVM. */
        public Builder javaHome(Path javaHome) {
            this.javaHome = Objects.requireNonNull(javaHome, "javaHome");
            return this;
        }

        /** How long {@link EmbeddedHBase#start()} waits for a table operation to succeed; default 90 s. */
        public Builder startTimeout(Duration startTimeout) {
            this.startTimeout = BuilderChecks.positive("startTimeout", startTimeout);
            return this;
        }

        /** How long {@link EmbeddedHBase#stop()} waits for a clean stop before killing; default 30 s. */
        public Builder stopTimeout(Duration stopTimeout) {
            this.stopTimeout = BuilderChecks.notNegative("stopTimeout", stopTimeout);
            return this;
        }

        /** The server's heap (-Xms and -Xmx); default 512. */
        public Builder heapMegabytes(int heapMegabytes) {
            this.heapMegabytes = BuilderChecks.heapMegabytes("heapMegabytes", heapMegabytes);
            return this;
        }

        /**
         * JVM options of the server besides heap and module options; default {@code -XX:+UseSerialGC
         * -XX:TieredStopAtLevel=1}, which starts faster but answers 1.5-2x slower. Benchmarks pass an
         * empty list (the JDK's defaults) or their own tuning.
         */
        public Builder jvmOptions(List<String> jvmOptions) {
            this.jvmOptions = List.copyOf(jvmOptions);
            return this;
        }

        public EmbeddedHBase build() {
            if (dataDirectory == null) {
                throw new EmbeddedHBaseException("No data directory: call dataDirectory(Path) on the builder");
            }
            return new EmbeddedHBase(this);
        }
    }
}
