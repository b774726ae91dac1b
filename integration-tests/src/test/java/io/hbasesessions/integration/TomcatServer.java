package io.hbasesessions.integration;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;

/**
 * One Tomcat distribution installed into a {@code $CATALINA_BASE} of its own exactly as docs/install.md tells a user,
 * started as {@code bin/catalina.sh run}, on a free port and without a shutdown port (SIGTERM stops it).
 */
final class TomcatServer extends InstalledServer {

    /** What a test adds to an installation: its users and applications. */
    interface Addition {
        void to(Path catalinaBase) throws IOException;
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path catalinaBase;

    private TomcatServer(Path catalinaBase, int port) {
        super(port);
        this.catalinaBase = catalinaBase;
    }

    /** Copies the unpacked distribution {@code version} to {@code target/it/tomcat-<version>-<name>} and installs it. */
    static TomcatServer install(String version, String name, String zookeeperQuorum, Path stateKeys, Addition addition)
            throws IOException {
        Path distribution = Path.of(System.getProperty("distributions"), "apache-tomcat-" + version);
        Path catalinaBase = FileTrees.copyFresh(distribution,
                Path.of("target", "it", "tomcat-" + version + "-" + name).toAbsolutePath());
        installAsReadmeSays(catalinaBase, zookeeperQuorum, stateKeys);
        addition.to(catalinaBase);
        int port = ServerProcess.freePort();
        useTestPorts(catalinaBase, port);
        return new TomcatServer(catalinaBase, port);
    }

    /** The steps of docs/install.md, in its order. */
    private static void installAsReadmeSays(Path catalinaBase, String zookeeperQuorum, Path stateKeys)
            throws IOException {
        Path jar = Path.of(System.getProperty("tomcat.dropin.jar"));
        Files.copy(jar, catalinaBase.resolve("lib").resolve(jar.getFileName()));
        Path keys = stateKeysIn(catalinaBase);
        Files.createDirectories(keys.getParent());
        Files.copy(stateKeys, keys);
        FileTrees.replaceOnce(catalinaBase.resolve("conf/context.xml"), "</Context>",
                "    <Manager className=\"io.hbasesessions.tomcat.HBaseSessionManager\" zookeeperQuorum=\""
                        + zookeeperQuorum + "\"\n             stateProtection=\"hmac\" stateKeyFile=\"" + keys
                        + "\"/>\n</Context>");
        // Optional in docs/install.md, but a start takes seconds longer per web application without it.
        FileTrees.replaceOnce(catalinaBase.resolve("conf/catalina.properties"),
                "tomcat.util.scan.StandardJarScanFilter.jarsToSkip=\\\n",
                "tomcat.util.scan.StandardJarScanFilter.jarsToSkip=\\\nhbase-sessions-tomcat-*.jar,\\\n");
        // The shop's login: a user of the realm server.xml configures (UserDatabaseRealm).
        FileTrees.replaceOnce(catalinaBase.resolve("conf/tomcat-users.xml"), "</tomcat-users>",
                "  <user username=\"alice\" password=\"demo\" roles=\"\"/>\n</tomcat-users>");
        Files.copy(Path.of(System.getProperty("shop.war")), catalinaBase.resolve("webapps/shop.war"));
    }

    /** Not a step of docs/install.md: a free HTTP port instead of 8080, and no shutdown port (SIGTERM stops Tomcat). */
    private static void useTestPorts(Path catalinaBase, int httpPort) throws IOException {
        Path serverXml = catalinaBase.resolve("conf/server.xml");
        FileTrees.replaceOnce(serverXml, "<Server port=\"8005\"", "<Server port=\"-1\"");
        FileTrees.replaceOnce(serverXml, "<Connector port=\"8080\" protocol=\"HTTP/1.1\"",
                "<Connector port=\"" + httpPort + "\" protocol=\"HTTP/1.1\"");
    }

    @Override
    ProcessBuilder command() {
        ProcessBuilder catalina = new ProcessBuilder(catalinaBase.resolve("bin/catalina.sh").toString(), "run")
                .directory(catalinaBase.toFile());
        Map<String, String> environment = catalina.environment();
        environment.keySet().removeIf(name -> name.startsWith("CATALINA_") || name.equals("JAVA_OPTS"));
        environment.put("JAVA_HOME", System.getProperty("java.home"));
        return catalina;
    }

    @Override
    Path logFile(String logName) {
        return catalinaBase.resolve("logs").resolve(logName);
    }

    Path catalinaBase() {
        return catalinaBase;
    }

    @Override
    Path stateKeys() {
        return stateKeysIn(catalinaBase);
    }

    /** Where the key file of docs/install.md is in an installation. */
    static Path stateKeysIn(Path catalinaBase) {
        return catalinaBase.resolve("conf/hbase-sessions/state-keys");
    }



    /** A command of the manager application ({@code text/list}, {@code jmxproxy/}, ...), as its operator. */
    String manager(String command, String query) {
        String credentials = AbstractTomcatDistributionIT.OPERATOR + ":" + AbstractTomcatDistributionIT.OPERATOR_PASSWORD;
        HttpRequest request = HttpRequest.newBuilder(url("manager/" + command + "?" + query))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofMinutes(2)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new AssertionError("manager/" + command + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted", e);
        }
    }
}
