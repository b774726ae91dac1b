package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ipc.NettyRpcClientConfigHelper;
import org.apache.hbase.thirdparty.io.netty.channel.EventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.nio.NioEventLoopGroup;
import org.apache.hbase.thirdparty.io.netty.channel.socket.nio.NioSocketChannel;
import org.apache.hbase.thirdparty.io.netty.util.Timer;
import org.apache.hbase.thirdparty.io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The threads of HBase's client, so that a web application that brings this library in its WAR leaves none
 * behind when it stops (and with them its class loader). Each connection gets network threads of its own,
 * which end when it closes; HBase's client also keeps timers in static fields for every connection of its
 * class loader (retries, call timeouts, the idle connection sweeper), which can only be stopped for good:
 * {@link #stopForGood} does, when the last connection of a library inside a web application closes.
 */
final class HBaseClientThreads {

    private static final System.Logger LOG = System.getLogger(HBaseClientThreads.class.getName());
    private static final ClassLoader LIBRARY = HBaseClientThreads.class.getClassLoader();
    /** HBase 2.6's static timers and executors, by class and field. */
    private static final List<String[]> STATIC_THREADS = List.of(
            new String[] {"org.apache.hadoop.hbase.client.AsyncConnectionImpl", "RETRY_TIMER"},
            new String[] {"org.apache.hadoop.hbase.ipc.AbstractRpcClient", "WHEEL_TIMER"},
            new String[] {"org.apache.hadoop.hbase.ipc.AbstractRpcClient", "IDLE_CONN_SWEEPER"});
    private static final Duration STOP_BOUND = Duration.ofSeconds(5);

    private HBaseClientThreads() {
    }

    /**
     * Network threads for one connection, named for this library, with its class loader as their context
     * loader whichever thread starts them; {@code conf} makes the connection use them.
     */
    static EventLoopGroup networkThreadsFor(Configuration conf) {
        EventLoopGroup group = new NioEventLoopGroup(0, new DefaultThreadFactory("hbase-sessions-rpc", true) {
            @Override
            protected Thread newThread(Runnable task, String name) {
                Thread thread = super.newThread(task, name);
                thread.setContextClassLoader(LIBRARY);
                return thread;
            }
        });
        NettyRpcClientConfigHelper.setEventLoopConfig(conf, group, NioSocketChannel.class);
        return group;
    }

    /**
     * Runs {@code work} (opening a store) on a thread of its own, with this library's class loader as its
     * context loader, and returns its result. What the client's classes leave in thread locals when they are
     * first loaded (the XML parser's buffers, for one) ends with that thread instead of staying on a
     * container's thread; the threads the client starts inherit this library's loader, not the web
     * application's; and the client's first log lines go to this library's logging context.
     */
    static <T> T onThreadOfItsOwn(Supplier<T> work) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            try {
                result.set(work.get());
            } catch (RuntimeException e) {
                failure.set(e);
            }
        }, "hbase-sessions-setup");
        thread.setContextClassLoader(LIBRARY);
        thread.setDaemon(true);
        thread.start();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException("Interrupted while connecting to HBase", null, e);
        }
        if (failure.get() != null) {
            throw failure.get();
        }
        return result.get();
    }

    /** Ends a closed connection's network threads, waiting for them a bounded time. */
    static void stop(EventLoopGroup networkThreads) {
        networkThreads.shutdownGracefully(0, STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(STOP_BOUND.toMillis());
    }

    /** Whether this library's classes belong to {@code webappLoader} alone: it came in the web application's WAR. */
    static boolean insideWebapp(ClassLoader webappLoader) {
        return webappLoader == LIBRARY && LIBRARY != ClassLoader.getSystemClassLoader();
    }

    /**
     * Stops the client's static timers and waits (a bounded time) until no other thread runs with this
     * library's class loader: what remains of the last connection (ZooKeeper's threads end after its close).
     * A JDK thread that inherited the loader is given the system class loader instead.
     * After this no connection can be opened with these classes: only for a web application that stops.
     */
    static void stopForGood() {
        for (String[] field : STATIC_THREADS) {
            try {
                Field holder = Class.forName(field[0], false, LIBRARY).getDeclaredField(field[1]);
                holder.setAccessible(true);
                Object threads = holder.get(null);
                if (threads instanceof Timer timer) {
                    timer.stop();
                } else if (threads instanceof ExecutorService executor) {
                    executor.shutdownNow();
                    executor.awaitTermination(STOP_BOUND.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ReflectiveOperationException | RuntimeException e) {
                LOG.log(Level.WARNING, "HBase client threads of " + field[0] + "." + field[1] + " could not be stopped: "
                        + e + "; the web application's class loader may stay in memory");
            }
        }
        awaitOtherThreadsOfThisLibrary();
    }

    private static void awaitOtherThreadsOfThisLibrary() {
        long deadline = System.nanoTime() + STOP_BOUND.toNanos();
        List<Thread> running = otherThreadsOfThisLibrary();
        for (Thread jdkThread : running.stream().filter(HBaseClientThreads::isTheJdks).toList()) {
            // The JDK's process reaper, started when Hadoop ran a command, inherited this loader; it lives on.
            jdkThread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        }
        running = otherThreadsOfThisLibrary();
        while (!running.isEmpty() && System.nanoTime() - deadline < 0) {
            try {
                running.get(0).join(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            running = otherThreadsOfThisLibrary();
        }
        if (!running.isEmpty()) {
            LOG.log(Level.WARNING, "Threads of the HBase client still run " + STOP_BOUND.toSeconds() + " s after its last "
                    + "connection closed: " + running.stream().map(Thread::getName).toList());
        }
    }

    private static boolean isTheJdks(Thread thread) {
        ThreadGroup group = thread.getThreadGroup();
        return group != null && group.getParent() == null;
    }

    private static List<Thread> otherThreadsOfThisLibrary() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread != Thread.currentThread() && thread.isAlive()
                        && thread.getContextClassLoader() == LIBRARY)
                .toList();
    }
}
