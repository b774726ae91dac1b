package io.hbasesessions.embedded;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The start and stop protocol of both launchers, the standalone server and the cluster: the data
 * directory's lock, the ZooKeeper port (picked once, then kept), the shutdown hook, and killing what was
 * launched when a start fails. Subclasses launch, stop and kill their own processes.
 */
abstract class ServerLauncher implements LocalHBase {

    static final int LOG_TAIL_LINES = 30;

    final DataDirectory directory;
    final Path javaHome;
    final Duration startTimeout;
    final Duration stopTimeout;
    final List<String> jvmOptions;
    final Optional<String> cpuAffinity;
    final OptionalLong owner;

    private final ShutdownHook shutdownHook = new ShutdownHook();
    private int zookeeperPort;
    /** False while a free port is still to be picked: until the first start that came up. */
    private boolean zookeeperPortFixed;
    private FileLock directoryLock;

    ServerLauncher(LauncherBuilder<?> builder) {
        directory = new DataDirectory(builder.dataDirectory);
        javaHome = builder.javaHome;
        startTimeout = builder.startTimeout;
        stopTimeout = builder.stopTimeout;
        jvmOptions = builder.jvmOptions;
        cpuAffinity = builder.cpuAffinity;
        owner = builder.owner;
        zookeeperPort = builder.zookeeperPort;
        zookeeperPortFixed = zookeeperPort != 0;
    }

    /** Launches the processes and returns once they serve clients; kills them if they do not. */
    abstract void launchAndAwaitReady(Path javaExecutable, String classpath);

    /** Whether anything was launched that {@link #stop()} has to stop. */
    abstract boolean launched();

    /** Stops cleanly what was launched, killing what still runs at {@code deadline}. */
    abstract void stopProcesses(Instant deadline);

    abstract void killProcesses();

    /** Drops the references to the processes once they are gone. */
    abstract void forgetProcesses();

    /** Does nothing if HBase is running; the ZooKeeper port of a restart is the first start's. */
    final synchronized void startProcesses() {
        if (isRunning()) {
            return;
        }
        stop(); // processes that exited on their own still hold the directory lock
        Path javaExecutable = JavaRuntime.requireSupported(javaHome);
        String classpath = ServerClasspath.build(directory.configuration());
        directory.createDirectories();
        FileLock lock = directory.lock();
        try {
            zookeeperPort = chooseZookeeperPort();
            directory.writeLoggingConfiguration();
            if (owner.isEmpty()) {
                shutdownHook.register("embedded-hbase-stop", this::stop);
            }
            launchAndAwaitReady(javaExecutable, classpath);
            directoryLock = lock;
            zookeeperPortFixed = true;
        } catch (RuntimeException e) {
            killProcesses();
            forgetProcesses();
            shutdownHook.remove();
            DataDirectory.release(lock);
            throw e;
        }
    }

    /** Does nothing if nothing was launched. */
    @Override
    public synchronized void stop() {
        if (!launched()) {
            return;
        }
        try {
            stopProcesses(Instant.now().plus(stopTimeout));
        } finally {
            forgetProcesses();
            DataDirectory.release(directoryLock);
            directoryLock = null;
            shutdownHook.remove();
        }
    }

    /** The ZooKeeper client port; 0 if a free port is to be picked and HBase has not started yet. */
    @Override
    public synchronized int zookeeperPort() {
        return zookeeperPort;
    }

    @Override
    public Path dataDirectory() {
        return directory.root();
    }

    /** Launches one server JVM in the data directory, on the {@link LauncherBuilder#cpuAffinity CPUs} it was given. */
    ServerJvm launch(List<String> javaCommand, Path logFile, String settings) {
        return ServerJvm.launch(javaCommand, cpuAffinity, directory, logFile, settings);
    }

    /** Best effort: if the request fails, the hard kill at the stop deadline still ends the servers. */
    void requestClusterShutdown() {
        try {
            new ControlClient(clientProperties()).shutdownCluster();
        } catch (IOException | RuntimeException e) {
            // The master may drop the connection before it answers; a dead master cannot answer at all.
        }
    }

    /** Waits for {@code probe}; an interrupt kills what was launched (the caller's catch does). */
    static ReadinessProbe.Outcome await(ReadinessProbe probe, List<ServerJvm> servers, Instant deadline) {
        try {
            return probe.await(servers.stream().map(ServerJvm::process).toList(), deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EmbeddedHBaseException("Interrupted while waiting for HBase to start: its processes were killed", e);
        }
    }

    private int chooseZookeeperPort() {
        if (!zookeeperPortFixed) {
            return ZookeeperPort.pickFree();
        }
        ZookeeperPort.requireFree(zookeeperPort);
        return zookeeperPort;
    }
}
