package io.hbasesessions.demo;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Main class of a node JVM: runs the node's main class (the first argument, given the others) and
 * ends this JVM when the launcher that started it is gone, even after a SIGKILL that ran no shutdown
 * hook. The launcher keeps the write end of this JVM's stdin open and never writes to it, so stdin
 * reaches end-of-file exactly when the launcher dies (embedded-hbase's ParentWatchdog does the same
 * for the HBase server, whose main class it names itself). Uses only the JDK: it runs on the node's
 * classpath.
 */
public final class ExitWithParent {

    /** A node's shutdown hooks (Tomcat or Jetty stopping) get this long before the JVM halts. */
    private static final long HALT_AFTER_EXIT_MILLIS = 10_000;

    private ExitWithParent() {
    }

    public static void main(String[] args) throws Throwable {
        startDaemon("exit-with-parent", ExitWithParent::exitWhenStdinCloses);
        Method main = Class.forName(args[0]).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void exitWhenStdinCloses() {
        try {
            while (System.in.read() != -1) {
                // The launcher never writes; any byte is ignored.
            }
        } catch (IOException closed) {
            // A broken pipe means the same as end-of-file: the launcher is gone.
        }
        System.err.println("The demo launcher is gone: stopping this node");
        startDaemon("exit-with-parent-halt", ExitWithParent::haltLater);
        System.exit(1);
    }

    private static void haltLater() {
        try {
            Thread.sleep(HALT_AFTER_EXIT_MILLIS);
        } catch (InterruptedException ignored) {
            // Halt at once.
        }
        Runtime.getRuntime().halt(1);
    }

    private static void startDaemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
