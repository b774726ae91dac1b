package io.hbasesessions.embedded;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * Main class of the HBase server process: runs {@code HMaster.main} and ends the process when the
 * parent that started it is gone, even if the parent was killed with SIGKILL and ran no shutdown hook.
 *
 * <p>The parent keeps the write end of this process's stdin open and never writes to it. The
 * operating system closes it when the parent dies, so stdin reaches end-of-file. Uses only the JDK,
 * because it runs on the server's classpath.
 */
public final class ParentWatchdog {

  static final String SERVER_MAIN_CLASS = "org.apache.hadoop.hbase.master.HMaster";

  /** HBase's own shutdown hook may take longer than this; a crash-like end is safe (the WAL is replayed). */
  private static final long HALT_AFTER_EXIT_MILLIS = 5_000;

  private ParentWatchdog() {
  }

  public static void main(String[] args) throws Throwable {
    startDaemon("parent-watchdog", ParentWatchdog::exitWhenParentIsGone);
    runServer(args);
    // HMaster.main returns once the cluster has shut down; no stray non-daemon thread may keep us alive.
    System.exit(0);
  }

  private static void exitWhenParentIsGone() {
    awaitEndOfStdin();
    System.err.println("ParentWatchdog: the parent process is gone, stopping HBase");
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

  private static void runServer(String[] args) throws Throwable {
    Method main = Class.forName(SERVER_MAIN_CLASS).getMethod("main", String[].class);
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
