package io.hbasesessions.testing.jetty;

import io.hbasesessions.testing.NodeOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The Jetty node program: serves a WAR on an embedded Jetty, its sessions in HBase (or in memory),
 * prints {@link NodeOptions#READY} once it serves, and runs until the JVM is told to stop.
 */
@Command(name = "jetty-node", mixinStandardHelpOptions = true,
        description = "Serves a WAR on an embedded Jetty on 127.0.0.1, its sessions stored in HBase.")
public final class JettyNodeMain implements Callable<Integer> {

    @Mixin
    private NodeOptions options;

    public static void main(String[] args) {
        System.exit(NodeOptions.execute(new JettyNodeMain(), args));
    }

    @Override
    public Integer call() throws Exception {
        JettyNode node = JettyNode.start(options, JettyNode.storeFactory(options));
        NodeOptions.announceReady(node.port(), node.serverInfo());
        node.await();
        return 0;
    }
}
