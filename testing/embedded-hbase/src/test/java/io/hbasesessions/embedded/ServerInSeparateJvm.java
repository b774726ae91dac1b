package io.hbasesessions.embedded;

import java.nio.file.Path;

/**
 * Started as a separate JVM by {@link ParentKillTest}: starts an embedded HBase on the data directory
 * named by the first argument, prints the server's pid and waits to be killed.
 */
public final class ServerInSeparateJvm {

    static final String PID_PREFIX = "server-pid=";

    private ServerInSeparateJvm() {
    }

    public static void main(String[] args) throws InterruptedException {
        EmbeddedHBase hbase = EmbeddedHBase.builder().dataDirectory(Path.of(args[0])).build().start();
        System.out.println(PID_PREFIX + hbase.pid());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
