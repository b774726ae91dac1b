package io.hbasesessions.embedded;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Main class of a child JVM (the HBase server, a demo or benchmark node): runs the main class named by
 * its first argument with the other arguments, and ends the JVM when the parent that started it is
 * gone, even if the parent was killed with SIGKILL and ran no shutdown hook. With
 * {@value #EXIT_AFTER_MAIN} before the class name, the JVM also ends when that main method returns
 * (HBase's does once the cluster has shut down, and no stray non-daemon thread may keep it alive).
 * With {@value #OWNER} and a pid before the class name, the JVM ends when that process ends instead of the
 * parent: a server shared by the test JVMs of one Maven build outlives the JVM that started it.
 *
 * <p>The parent keeps the write end of this process's stdin open and never writes to it. The
 * operating system closes it when the parent dies, so stdin reaches end-of-file. SIGINT is ignored:
 * a Ctrl-C in a terminal reaches every process of the foreground group, and the parent stops its
 * children in order (HBase's own reaction to SIGINT stops its ZooKeeper before its region server,
 * which then hangs). Uses only the JDK, because it runs on the child's classpath.
 */
public final class ParentWatchdog {

    static final String EXIT_AFTER_MAIN = "--exit-after-main";
    static final String OWNER = "--owner";

    /** A child's own shutdown hooks may take longer than this; a crash-like end is safe (HBase replays its WAL). */
    private static final long HALT_AFTER_EXIT_MILLIS = 10_000;

    private ParentWatchdog() {
    }

    /** The jar or classes directory holding this class: what a child JVM's classpath needs to run it. */
    public static Path location() {
        try {
            return Path.of(ParentWatchdog.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the embedded-hbase classes on the classpath: put "
                    + "embedded-hbase on the classpath as a jar or a directory", e);
        }
    }

    public static void main(String[] args) throws Throwable {
        Signal.handle(new Signal("INT"), SignalHandler.SIG_IGN);
        boolean exitAfterMain = args[0].equals(EXIT_AFTER_MAIN);
        int mainClassIndex = exitAfterMain ? 1 : 0;
        if (args[mainClassIndex].equals(OWNER)) {
            long owner = Long.parseLong(args[mainClassIndex + 1]);
            startDaemon("owner-watchdog", () -> exitWhenOwnerIsGone(owner));
            mainClassIndex += 2;
        } else {
            startDaemon("parent-watchdog", ParentWatchdog::exitWhenParentIsGone);
        }
        runMain(args[mainClassIndex], Arrays.copyOfRange(args, mainClassIndex + 1, args.length));
        if (exitAfterMain) {
            System.exit(0);
        }
    }

    private static void exitWhenParentIsGone() {
        awaitEndOfStdin();
        exit("the parent process is gone");
    }

    private static void exitWhenOwnerIsGone(long owner) {
        ProcessHandle.of(owner).ifPresent(process -> process.onExit().join());
        exit("the owner process " + owner + " is gone");
    }

    private static void exit(String reason) {
        System.err.println("ParentWatchdog: " + reason + ", stopping this process");
        startDaemon("parent-watchdog-halt", ParentWatchdog::haltLater);
        System.exit(1);
    }

    private static void awaitEndOfStdin() {
        try {
            while (System.in.read() != -1) {
                // The parent never writes; any byte is ignored.
            }
        } catch (IOException closed) {
            // A broken pipe means the same as end-of-file: the parent is gone.
        }
    }

    private static void haltLater() {
        try {
            Thread.sleep(HALT_AFTER_EXIT_MILLIS);
        } catch (InterruptedException ignored) {
            // Halt at once.
        }
        Runtime.getRuntime().halt(1);
    }

    private static void runMain(String mainClass, String[] args) throws Throwable {
        Method main = Class.forName(mainClass).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private static void startDaemon(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }
}
