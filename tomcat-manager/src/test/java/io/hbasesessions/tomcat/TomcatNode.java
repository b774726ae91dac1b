package io.hbasesessions.tomcat;

import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.testing.contract.AdapterNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.Manager;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * An embedded Tomcat serving the real test WAR at {@code /app} on a free port, with a realm for login
 * tests and the session manager the test gives it. Its name is its jvmRoute and its JMX domain.
 */
final class TomcatNode implements AdapterNode {

    private final String name;
    private final Path baseDirectory;
    private final Supplier<? extends Manager> managers;
    private Tomcat tomcat;
    private Context context;

    /** {@code managers} makes a fresh manager for every start: a stopped manager cannot start again. */
    TomcatNode(String name, Path baseDirectory, Supplier<? extends Manager> managers) {
        this.name = name;
        this.baseDirectory = baseDirectory;
        this.managers = managers;
    }

    TomcatNode start() {
        try {
            Files.createDirectories(baseDirectory.resolve("webapps"));
            tomcat = new Tomcat();
            tomcat.setBaseDir(baseDirectory.toString());
            tomcat.setPort(0);
            tomcat.setAddDefaultWebXmlToWebapp(false);
            tomcat.getEngine().setName(name);
            tomcat.getEngine().setJvmRoute(name);
            context = tomcat.addWebapp("/app", testWar().toString());
            // Scanning the test classpath (HBase client and all) for web fragments only slows the start.
            ((StandardJarScanner) context.getJarScanner()).setScanClassPath(false);
            context.setRealm(new TestRealm());
            context.setManager(managers.get());
            tomcat.getConnector();
            tomcat.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat node " + name + " did not start", e);
        }
        if (context.getState() != LifecycleState.STARTED) {
            throw new IllegalStateException("The test WAR did not start on node " + name + ": see the test log");
        }
        return this;
    }

    /** {@code http://127.0.0.1:<port>/app/session}: the test WAR's servlet. */
    @Override
    public URI servlet() {
        return URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/app/session");
    }

    Manager manager() {
        return context.getManager();
    }

    HBaseSessionManager hbaseManager() {
        return (HBaseSessionManager) context.getManager();
    }

    @Override
    public StoreCounters counters() {
        return hbaseManager().counters();
    }

    void stop() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat node " + name + " did not stop", e);
        } finally {
            tomcat = null;
        }
    }

    @Override
    public void close() {
        if (tomcat != null) {
            stop();
        }
    }

    static Path testWar() {
        String war = System.getProperty("test.webapp.war");
        if (war == null || !Files.isRegularFile(Path.of(war))) {
            throw new IllegalStateException("System property test.webapp.war must name the test WAR (got " + war
                    + "); run the tests through Maven (mvn verify), which builds and passes it");
        }
        return Path.of(war);
    }
}
