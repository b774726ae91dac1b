package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testvalues.AttributeValues;
import java.io.File;
import java.lang.ref.WeakReference;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #28 item 4: a web application that brings the store in its WAR (a Shiro application) loads it, and
 * HBase's client, with a class loader of its own. When its last store closes nothing may keep that loader:
 * no thread of the client (its network threads, its static timers, ZooKeeper's), and no cache of the JDK's
 * holding one of its classes (a {@code ClassValue} on a JDK class did), nor Hadoop's FileSystem, which the loader the
 * client keeps for classes the servers name opened (its statistics thread did, seen after a server's
 * {@code TableExistsException}). Here the store runs in such a loader, reads, writes and decodes (an application value
 * among the attributes), gets what a server's first exception makes, closes, and the loader must be collected, with no
 * thread left.
 */
@ExtendWith(HBaseExtension.class)
class StoreInsideAWebappTest {

    private static final int GC_ATTEMPTS = 20;

    @Test
    void aStoreInAWebApplicationsOwnClassLoaderLeavesNoThreadAndLetsTheLoaderGoWhenItCloses(EmbeddedHBase server,
            TestNamespace namespace) throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        Map<String, String> settings = Map.of("zookeeperQuorum", server.zookeeperQuorum() + ":" + server.zookeeperPort(),
                "table", namespace.table("sessions"), "indexTable", namespace.table("user_sessions"), "regions", "2",
                "keyScope", "/webapp");

        WeakReference<ClassLoader> webapp = useAStoreInAWebappLoader(settings);

        for (int attempt = 0; attempt < GC_ATTEMPTS && webapp.get() != null; attempt++) {
            System.gc();
            Thread.sleep(100);
        }
        assertNull(webapp.get(), "the web application's class loader is still referenced after its store closed");
        List<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !before.contains(thread) && thread.isAlive() && !isTheJdks(thread))
                .map(Thread::getName).toList();
        assertEquals(List.of(), left, "threads left behind");
    }

    /** Runs {@link InTheWebapp} in a class loader that has the store and its dependencies of its own, as a WAR has. */
    private static WeakReference<ClassLoader> useAStoreInAWebappLoader(Map<String, String> settings) throws Exception {
        URLClassLoader loader = new URLClassLoader(testClassPath(), ClassLoader.getPlatformClassLoader());
        Thread thread = Thread.currentThread();
        ClassLoader caller = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            Class<?> work = Class.forName(InTheWebapp.class.getName(), true, loader);
            ((Runnable) work.getConstructor(Map.class).newInstance(settings)).run();
        } finally {
            thread.setContextClassLoader(caller);
            loader.close();
        }
        return new WeakReference<>(loader);
    }

    private static URL[] testClassPath() throws MalformedURLException {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<URL> urls = new ArrayList<>();
        for (String entry : classPath.split(File.pathSeparator)) {
            urls.add(Path.of(entry).toUri().toURL());
        }
        return urls.toArray(URL[]::new);
    }

    private static boolean isTheJdks(Thread thread) {
        ThreadGroup group = thread.getThreadGroup();
        return group != null && group.getParent() == null;
    }

    /** What the web application does with its store; loaded by the web application's loader. */
    public static final class InTheWebapp implements Runnable {
        private final Map<String, String> settings;

        public InTheWebapp(Map<String, String> settings) {
            this.settings = settings;
        }

        @Override
        public void run() {
            StoreSettings.Builder builder = StoreSettings.builder();
            settings.forEach(builder::set);
            ClassLoader loader = InTheWebapp.class.getClassLoader();
            try (SessionStore store = SessionStores.open(builder.build(), new Webapp(loader, Container.SHIRO))) {
                StoredSession created = TestStores.create(store, Instant.now(), Duration.ofMinutes(30),
                        Map.of("user", "alice", "cart", new ArrayList<>(List.of("book")), "visit", new AttributeValues.Point(3, 4)));
                StoredSession loaded = store.load(created.record().id()).orElseThrow();
                loaded.attributes().keySet();
                loaded.attributes().put("step", "checkout");
                store.save(loaded, loaded.record());
                onAClientThread(InTheWebapp::whatAServersFirstExceptionMakes);
            }
        }

        /** The class loader HBase's client keeps for the exception classes servers name, made by the first of them. */
        private static void whatAServersFirstExceptionMakes() {
            try {
                Class.forName("org.apache.hadoop.hbase.ipc.RemoteWithExtrasException$ClassLoaderHolder", true,
                        InTheWebapp.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("HBase's client changed: no RemoteWithExtrasException$ClassLoaderHolder", e);
            }
        }

        /** As the client's own threads do it (they end with the store), not on the caller's. */
        private static void onAClientThread(Runnable work) {
            Thread thread = new Thread(work, "as-a-client-thread");
            thread.start();
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
