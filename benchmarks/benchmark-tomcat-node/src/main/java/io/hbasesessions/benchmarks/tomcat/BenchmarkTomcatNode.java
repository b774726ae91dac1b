package io.hbasesessions.benchmarks.tomcat;

import io.hbasesessions.benchmarks.node.NodeConsole;
import io.hbasesessions.testing.NodeOptions;
import io.hbasesessions.testing.tomcat.TomcatNode;
import io.hbasesessions.tomcat.HBaseSessionManager;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.catalina.Manager;
import org.redisson.tomcat.RedissonSessionManager;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The Tomcat node program (testing/tomcat-node) as the benchmarks run it: with Redisson's session
 * manager as a further choice, and controlled by the driver through {@link NodeConsole}.
 */
@Command(name = "benchmark-tomcat-node", mixinStandardHelpOptions = true,
        description = "The Tomcat node, with Redisson's sessions as a further choice, controlled by the benchmark driver.")
public final class BenchmarkTomcatNode implements Callable<Integer> {

    @Mixin
    private NodeOptions options;

    @Option(names = "--redisson-config", paramLabel = "FILE",
            description = "Redisson's YAML configuration: its session manager (default mode) instead of the one --sessions names.")
    private Path redissonConfig;

    public static void main(String[] args) {
        System.exit(NodeOptions.execute(new BenchmarkTomcatNode(), args));
    }

    @Override
    public Integer call() throws Exception {
        Manager manager = redissonConfig == null ? TomcatNode.sessionManager(options) : redisson();
        TomcatNode node = TomcatNode.start(options, manager);
        NodeOptions.announceReady(node.port(), node.serverInfo());
        NodeConsole.serve(() -> counters(manager), node::stop);
        return 0;
    }

    private RedissonSessionManager redisson() {
        RedissonSessionManager manager = new RedissonSessionManager();
        manager.setConfigPath(redissonConfig.toString());
        return manager;
    }

    private static Map<String, Long> counters(Manager manager) {
        return NodeConsole.counters(manager.getActiveSessions(),
                manager instanceof HBaseSessionManager hbase ? hbase.counters() : null);
    }
}
