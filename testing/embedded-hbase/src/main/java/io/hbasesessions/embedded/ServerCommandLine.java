package io.hbasesessions.embedded;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The commands that start the launcher's server JVMs on 127.0.0.1: a standalone HBase (master, region
 * server and ZooKeeper in one JVM), or the ZooKeeper, master and region servers of a cluster. HBase
 * reads the {@code -D} options as program arguments, so they follow the class name.
 */
final class ServerCommandLine {

    static final String LOOPBACK = "127.0.0.1";

    /**
     * Faster start (about 6 s instead of 8 s) at the price of 1.5-2x steady-state latency: the default,
     * for tests. Benchmarks pass their own options instead.
     */
    static final List<String> QUICK_START_OPTIONS = List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    /** What HBase's own bin/hbase passes on Java 11+; without them HBase falls back to slower code paths. */
    private static final List<String> JAVA_MODULE_OPTIONS = List.of(
            "-Dorg.apache.hbase.thirdparty.io.netty.tryReflectionSetAccessible=true",
            "--add-modules", "jdk.unsupported",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.nio=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.security.jgss/sun.security.krb5=ALL-UNNAMED",
            "--add-exports", "java.base/sun.net.dns=ALL-UNNAMED",
            "--add-exports", "java.base/sun.net.util=ALL-UNNAMED");

    private static final String MASTER_MAIN_CLASS = "org.apache.hadoop.hbase.master.HMaster";
    private static final String REGION_SERVER_MAIN_CLASS = "org.apache.hadoop.hbase.regionserver.HRegionServer";
    private static final String ZOOKEEPER_MAIN_CLASS = "org.apache.zookeeper.server.ZooKeeperServerMain";

    /** ZooKeeper's whole heap: a handful of clients and a few hundred znodes. */
    private static final int ZOOKEEPER_HEAP_MEGABYTES = 64;
    /**
     * ZooKeeper grants session timeouts between 2 and 20 ticks; a short tick lets a test ask for a few
     * seconds (fast detection of a killed region server) and the cap below lets others ask for HBase's 90 s.
     */
    private static final int ZOOKEEPER_TICK_MILLIS = 500;
    private static final int ZOOKEEPER_MAX_SESSION_MILLIS = 90_000;

    private ServerCommandLine() {
    }

    /** A JVM of the launcher: heap, options, classpath, then {@code mainClass} run by {@link ParentWatchdog}. */
    static List<String> command(Path javaExecutable, int heapMegabytes, List<String> jvmOptions, String classpath,
            String mainClass, List<String> arguments) {
        return command(javaExecutable, heapMegabytes, jvmOptions, classpath, OptionalLong.empty(), mainClass, arguments);
    }

    /** As above; with an {@code owner} pid, the JVM lives until that process ends instead of this one. */
    static List<String> command(Path javaExecutable, int heapMegabytes, List<String> jvmOptions, String classpath,
            OptionalLong owner, String mainClass, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(javaExecutable.toString());
        command.add("-Xms" + heapMegabytes + "m");
        command.add("-Xmx" + heapMegabytes + "m");
        command.addAll(jvmOptions);
        command.addAll(JAVA_MODULE_OPTIONS);
        command.add("-cp");
        command.add(classpath);
        command.add(ParentWatchdog.class.getName());
        command.add(ParentWatchdog.EXIT_AFTER_MAIN);
        owner.ifPresent(pid -> command.addAll(List.of(ParentWatchdog.OWNER, Long.toString(pid))));
        command.add(mainClass);
        command.addAll(arguments);
        return command;
    }

    /** A standalone HBase: master, region server and ZooKeeper in one JVM, with {@code serverSettings} on top. */
    static List<String> startCommand(Path javaExecutable, int heapMegabytes, List<String> jvmOptions,
            String classpath, OptionalLong owner, DataDirectory directory, int zookeeperPort,
            Map<String, String> serverSettings) {
        List<String> arguments = new ArrayList<>(sharedSettings(directory, zookeeperPort));
        new TreeMap<>(serverSettings).forEach((name, value) -> arguments.add("-D" + name + "=" + value));
        arguments.addAll(List.of(
                "-Dhbase.cluster.distributed=false",
                "-Dhbase.tmp.dir=" + directory.tmp(),
                "-Dhbase.zookeeper.property.dataDir=" + directory.zookeeper(),
                // Master and region server RPC ports are picked at random, so several servers can run at once.
                "-Dhbase.localcluster.assign.random.ports=true",
                "-Dhbase.master.wait.on.regionservers.maxtostart=1",
                "start"));
        return command(javaExecutable, heapMegabytes, jvmOptions, classpath, owner, MASTER_MAIN_CLASS, arguments);
    }

    /** The contents of the {@code zoo.cfg} of a cluster's ZooKeeper, which binds loopback only. */
    static String zookeeperConfiguration(DataDirectory directory, int zookeeperPort) {
        return String.join(System.lineSeparator(),
                "tickTime=" + ZOOKEEPER_TICK_MILLIS,
                "maxSessionTimeout=" + ZOOKEEPER_MAX_SESSION_MILLIS,
                "dataDir=" + directory.zookeeper(),
                "clientPort=" + zookeeperPort,
                "clientPortAddress=" + LOOPBACK,
                // Every client of the cluster connects from 127.0.0.1: no per-address limit.
                "maxClientCnxns=0",
                // The admin server would take port 8080.
                "admin.enableServer=false",
                "");
    }

    static List<String> zookeeperCommand(Path javaExecutable, List<String> jvmOptions, String classpath, Path configurationFile) {
        return command(javaExecutable, ZOOKEEPER_HEAP_MEGABYTES, jvmOptions, classpath, ZOOKEEPER_MAIN_CLASS,
                List.of(configurationFile.toString()));
    }

    /** The master of a cluster; it assigns regions once {@code regionServers} have registered. */
    static List<String> masterCommand(Path javaExecutable, int heapMegabytes, List<String> jvmOptions, String classpath,
            ClusterSettings cluster, DataDirectory directory, String process, int regionServers) {
        List<String> arguments = new ArrayList<>(clusterSettings(directory, cluster, process));
        arguments.addAll(List.of(
                "-Dhbase.master.port=" + cluster.masterPort(),
                "-Dhbase.master.wait.on.regionservers.mintostart=" + regionServers,
                "-Dhbase.master.wait.on.regionservers.maxtostart=" + regionServers,
                "start"));
        return command(javaExecutable, heapMegabytes, jvmOptions, classpath, MASTER_MAIN_CLASS, arguments);
    }

    static List<String> regionServerCommand(Path javaExecutable, int heapMegabytes, List<String> jvmOptions,
            String classpath, ClusterSettings cluster, DataDirectory directory, String process, int regionServerPort) {
        List<String> arguments = new ArrayList<>(clusterSettings(directory, cluster, process));
        arguments.addAll(List.of("-Dhbase.regionserver.port=" + regionServerPort, "start"));
        return command(javaExecutable, heapMegabytes, jvmOptions, classpath, REGION_SERVER_MAIN_CLASS, arguments);
    }

    /**
     * The ports, ZooKeeper session timeout and region replica replication every process of a cluster is
     * started with.
     */
    record ClusterSettings(int zookeeperPort, int masterPort, Duration zookeeperSessionTimeout,
            boolean regionReplicaReplication) {
    }

    private static List<String> clusterSettings(DataDirectory directory, ClusterSettings cluster, String process) {
        List<String> settings = new ArrayList<>(sharedSettings(directory, cluster.zookeeperPort()));
        settings.addAll(List.of(
                "-Dhbase.cluster.distributed=true",
                "-Dhbase.tmp.dir=" + directory.tmp(process),
                // How long a killed region server stays listed as live: its ZooKeeper session must expire first.
                "-Dzookeeper.session.timeout=" + cluster.zookeeperSessionTimeout().toMillis()));
        if (cluster.regionReplicaReplication()) {
            // HBase 2.6: the master adds the replication peer region_replica_replication
            // (RegionReplicaReplicationEndpoint) when a table with REGION_REPLICATION > 1 is created or
            // altered; each region server's replication source then ships the primary's WAL edits (and its
            // flush and compaction markers, so no store file refresher is needed) to the secondaries.
            settings.add("-Dhbase.region.replica.replication.enabled=true");
        }
        return settings;
    }

    private static List<String> sharedSettings(DataDirectory directory, int zookeeperPort) {
        return List.of(
                "-Dhbase.rootdir=" + directory.hbaseRoot().toUri(),
                "-Dhbase.zookeeper.quorum=" + LOOPBACK,
                "-Dhbase.zookeeper.property.clientPort=" + zookeeperPort,
                "-Dhbase.master.hostname=" + LOOPBACK,
                "-Dhbase.regionserver.hostname=" + LOOPBACK,
                // The web UIs' files are not in the Maven jars; -1 turns them off.
                "-Dhbase.master.info.port=-1",
                "-Dhbase.regionserver.info.port=-1",
                // The local file system cannot hsync; HBase refuses to write a WAL on it unless told.
                "-Dhbase.unsafe.stream.capability.enforce=false",
                "-Dhbase.regionserver.msginterval=500");
    }
}
