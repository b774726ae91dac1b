package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The real jetty-home with this build's module zip, installed into a new jetty-base exactly as docs/install.md tells a
 * user, for one Jetty environment (ee10 or ee11), and run as {@code java -jar $JETTY_HOME/start.jar} on a free
 * port; the shop WAR is deployed from {@code webapps/}.
 */
final class JettyServer extends InstalledServer {

    /** What a test adds to a jetty-base after the steps of docs/install.md: modules, users, applications. */
    interface Addition {
        void to(JettyServer server) throws IOException, InterruptedException;
    }

    private final Path jettyHome;
    private final Path jettyBase;
    private final List<String> systemProperties = new ArrayList<>();

    private JettyServer(Path jettyHome, Path jettyBase, int port) {
        super(port);
        this.jettyHome = jettyHome;
        this.jettyBase = jettyBase;
    }

    /** Installs a node whose cells are protected with the key in {@code stateKeys}, which every node shares. */
    static JettyServer install(String environment, String name, String zookeeperQuorum, Path stateKeys,
            Addition addition) throws IOException, InterruptedException {
        String version = System.getProperty("jetty.home.version");
        Path jettyHome = Path.of(System.getProperty("distributions"), "jetty-home-" + version);
        Path jettyBase = Path.of("target", "it", "jetty-base-" + environment + "-" + name).toAbsolutePath();
        FileTrees.deleteRecursively(jettyBase);
        JettyServer server = new JettyServer(jettyHome, jettyBase, ServerProcess.freePort());
        server.installAsReadmeSays(environment, zookeeperQuorum, stateKeys);
        addition.to(server);
        return server;
    }

    /**
     * The steps of docs/install.md, in its order. The module brings its own session cache (the non-sticky-safe cache is the
     * outcome of adding session-store-hbase), so no session-cache module is added with it; Jetty refuses a second
     * provider of session-cache.
     */
    private void installAsReadmeSays(String environment, String zookeeperQuorum, Path stateKeys)
            throws IOException, InterruptedException {
        Files.createDirectories(jettyBase);
        FileTrees.unzip(Path.of(System.getProperty("jetty.module.zip")), jettyBase);
        addModules("http," + environment + "-deploy," + environment + "-annotations,session-store-hbase");
        String configuration = runStartJar("list-config.log", "--list-config");
        assertTrue(configuration.contains("etc/sessions/hbase/session-store.xml"),
                "the module's session cache and store are not configured:\n" + configuration);
        assertFalse(configuration.contains("session-cache-hash") || configuration.contains("session-cache-null"),
                "a session cache module other than the store's own is enabled:\n" + configuration);
        Files.createDirectories(stateKeys().getParent());
        Files.copy(stateKeys, stateKeys());
        Files.writeString(jettyBase.resolve("start.d/session-store-hbase.ini"),
                "jetty.session.hbase.zookeeperQuorum=" + zookeeperQuorum + "\n"
                        + "jetty.session.hbase.stateProtection=hmac\n"
                        + "jetty.session.hbase.stateKeyFile=" + stateKeys() + "\n", StandardOpenOption.APPEND);
        Files.copy(Path.of(System.getProperty("shop.war")), jettyBase.resolve("webapps/shop.war"));
    }

    void addModules(String modules) throws IOException, InterruptedException {
        runStartJar("add-modules.log", "--add-modules=" + modules);
    }

    /** A system property of the server's JVM (given to start.jar as {@code -Dname=value}). */
    void systemProperty(String name, String value) {
        systemProperties.add("-D" + name + "=" + value);
    }

    Path jettyBase() {
        return jettyBase;
    }

    @Override
    Path stateKeys() {
        return jettyBase.resolve("etc/hbase-sessions/state-keys");
    }

    /** Runs {@code start.jar} with {@code argument} to its end and returns its output. */
    private String runStartJar(String logName, String argument) throws IOException, InterruptedException {
        Path log = jettyBase.resolve(logName);
        Process process = startJar(List.of(argument)).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "start.jar " + argument + " did not finish");
        assertEquals(0, process.exitValue(), "start.jar " + argument + " failed:\n" + Files.readString(log));
        return Files.readString(log);
    }

    /** Not a step of docs/install.md: a free port instead of 8080, on the command line. */
    @Override
    ProcessBuilder command() {
        List<String> arguments = new ArrayList<>(systemProperties);
        arguments.addAll(List.of("jetty.http.host=127.0.0.1", "jetty.http.port=" + port()));
        return startJar(arguments);
    }

    @Override
    Path logFile(String logName) {
        return jettyBase.resolve(logName);
    }

    private ProcessBuilder startJar(List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", jettyHome.resolve("start.jar").toString()));
        command.addAll(arguments);
        return new ProcessBuilder(command).directory(jettyBase.toFile());
    }
}
