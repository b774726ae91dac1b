package io.hbasesessions.embedded;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command that starts a standalone HBase (master, region server and ZooKeeper in one JVM) on
 * 127.0.0.1. HBase reads the {@code -D} options as program arguments, so they follow the class name.
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

    private ServerCommandLine() {
    }

    private static final String SERVER_MAIN_CLASS = "org.apache.hadoop.hbase.master.HMaster";

    static List<String> startCommand(Path javaExecutable, int heapMegabytes, List<String> jvmOptions,
            String classpath, DataDirectory directory, int zookeeperPort) {
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
        command.add(SERVER_MAIN_CLASS);
        command.addAll(serverSettings(directory, zookeeperPort));
        command.add("start");
        return command;
    }

    private static List<String> serverSettings(DataDirectory directory, int zookeeperPort) {
        return List.of(
                "-Dhbase.cluster.distributed=false",
                "-Dhbase.rootdir=" + directory.hbaseRoot().toUri(),
                "-Dhbase.tmp.dir=" + directory.tmp(),
                "-Dhbase.zookeeper.property.dataDir=" + directory.zookeeper(),
                "-Dhbase.zookeeper.quorum=" + LOOPBACK,
                "-Dhbase.zookeeper.property.clientPort=" + zookeeperPort,
                "-Dhbase.master.hostname=" + LOOPBACK,
                "-Dhbase.regionserver.hostname=" + LOOPBACK,
                // The web UIs' files are not in the Maven jars; -1 turns them off.
                "-Dhbase.master.info.port=-1",
                "-Dhbase.regionserver.info.port=-1",
                // Master and region server RPC ports are picked at random, so several servers can run at once.
                "-Dhbase.localcluster.assign.random.ports=true",
                // The local file system cannot hsync; HBase refuses to write a WAL on it unless told.
                "-Dhbase.unsafe.stream.capability.enforce=false",
                "-Dhbase.master.wait.on.regionservers.maxtostart=1",
                "-Dhbase.regionserver.msginterval=500");
    }
}
