package io.hbasesessions.testing.tomcat;

import io.hbasesessions.testing.NodeOptions;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * The Tomcat node program: serves a WAR on an embedded Tomcat, its sessions in HBase (or in memory),
 * prints {@link NodeOptions#READY} once it serves, and runs until the JVM is told to stop.
 */
@Command(name = "tomcat-node", mixinStandardHelpOptions = true,
        description = "Serves a WAR on an embedded Tomcat on 127.0.0.1, its sessions stored in HBase.")
public final class TomcatNodeMain implements Callable<Integer> {

    @Mixin
    private NodeOptions options;

    public static void main(String[] args) {
        System.exit(NodeOptions.execute(new TomcatNodeMain(), args));
    }

    @Override
    public Integer call() throws Exception {
        TomcatNode node = TomcatNode.start(options, TomcatNode.sessionManager(options));
        NodeOptions.announceReady(node.port(), node.serverInfo());
        node.await();
        return 0;
    }
}
