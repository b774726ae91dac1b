package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.jetty.SessionClient.Reply;
import io.hbasesessions.store.SessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The user's path: the real Jetty distribution, a new jetty-base, {@code --add-modules} with the
 * module and jars this build packaged, Jetty as a separate process serving the test WAR from
 * {@code webapps/}, its sessions in HBase and still there after a restart of that process.
 */
@ExtendWith(HBaseExtension.class)
class JettyDistributionIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    @ParameterizedTest
    @ValueSource(strings = {"ee10", "ee11"})
    void theModuleStoresSessionsOfADeployedWarInHBase(String environment, EmbeddedHBase hbase, TestNamespace namespace)
            throws Exception {
        Path work = Files.createTempDirectory(Files.createDirectories(Path.of("target", "it")), environment + "-")
                .toAbsolutePath();
        Path jettyHome = unpackJettyHome(work);
        Path jettyBase = Files.createDirectories(work.resolve("jetty-base"));
        unzip(Path.of(System.getProperty("jetty.module.zip")), jettyBase);
        Files.createDirectories(jettyBase.resolve("webapps"));
        Files.copy(JettyNode.testWar(), jettyBase.resolve("webapps/app.war"));
        run(work.resolve("add-modules.log"), jettyHome, jettyBase, List.of("--add-modules=http,"
                + environment + "-deploy," + environment + "-annotations,session-cache-hash,session-store-hbase"));
        Path config = work.resolve("list-config.log");
        run(config, jettyHome, jettyBase, List.of("--list-config"));
        assertTrue(Files.readString(config).contains("jetty.session.evictionPolicy = 0"),
                "the module did not make the session cache evict on request exit");

        Map<String, String> settings = TestStores.settings(hbase, namespace);
        List<String> properties = new ArrayList<>();
        settings.forEach((name, value) -> properties.add("jetty.session.hbase." + name + "=" + value));
        int port = freePort();
        properties.add("jetty.http.host=127.0.0.1");
        properties.add("jetty.http.port=" + port);
        URI servlet = URI.create("http://127.0.0.1:" + port + "/app/session");

        SessionClient browser = new SessionClient();
        try (JettyProcess jetty = JettyProcess.start(work.resolve("jetty-1.log"), jettyHome, jettyBase, properties, servlet)) {
            browser.get(servlet, "op=put&name=cart&value=book");
            browser.get(servlet, "op=append&name=notes&value=first");
        }
        try (SessionStore store = TestStores.inspector(settings)) {
            assertTrue(store.exists(browser.sessionId()), "the session is not in HBase");
            assertTrue(store.load(browser.sessionId()).orElseThrow().version() >= 2, "the attribute writes are not in HBase");
        }
        try (JettyProcess jetty = JettyProcess.start(work.resolve("jetty-2.log"), jettyHome, jettyBase, properties, servlet)) {
            Reply afterRestart = browser.get(servlet, "op=get");
            assertEquals("Note(book)", afterRestart.attribute("cart"));
            assertTrue(afterRestart.attribute("notes").contains("first"), afterRestart.toString());
            assertTrue(Files.readString(jetty.log).contains("Sessions are stored in HBase"), "no store start-up line in " + jetty.log);
        }
    }

    private static Path unpackJettyHome(Path work) throws IOException, InterruptedException {
        Path archive = Path.of(System.getProperty("jetty.home.archive"));
        Path unpacked = Files.createDirectories(work.resolve("home"));
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", unpacked.toString(),
                "--strip-components=1").inheritIO().start();
        assertEquals(0, tar.waitFor(), "tar failed on " + archive);
        return unpacked;
    }

    private static void unzip(Path archive, Path target) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                Path file = target.resolve(entry.getName()).normalize();
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(zip, file);
                }
            }
        }
    }

    private static void run(Path log, Path jettyHome, Path jettyBase, List<String> arguments)
            throws IOException, InterruptedException {
        Process process = JettyProcess.builder(log, jettyHome, jettyBase, arguments).start();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "start.jar did not finish");
        assertEquals(0, process.exitValue(), "start.jar failed: " + Files.readString(log));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Jetty started with {@code java -jar start.jar} in its jetty-base, as a separate JVM. */
    private record JettyProcess(Process process, Path log) implements AutoCloseable {

        static ProcessBuilder builder(Path log, Path jettyHome, Path jettyBase, List<String> arguments) {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", jettyHome.resolve("start.jar").toString()));
            command.addAll(arguments);
            return new ProcessBuilder(command).directory(jettyBase.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile());
        }

        static JettyProcess start(Path log, Path jettyHome, Path jettyBase, List<String> properties, URI servlet)
                throws IOException, InterruptedException {
            JettyProcess jetty = new JettyProcess(builder(log, jettyHome, jettyBase, properties).start(), log);
            Instant deadline = Instant.now().plus(START_TIMEOUT);
            while (!jetty.answers(servlet)) {
                if (!jetty.process.isAlive() || Instant.now().isAfter(deadline)) {
                    jetty.close();
                    throw new AssertionError("Jetty did not serve " + servlet + ":\n" + Files.readString(log));
                }
                Thread.sleep(250);
            }
            return jetty;
        }

        private boolean answers(URI servlet) {
            try (InputStream body = URI.create(servlet + "?op=node").toURL().openStream()) {
                return body.readAllBytes().length > 0;
            } catch (IOException notYet) {
                return false;
            }
        }

        @Override
        public void close() throws InterruptedException {
            process.destroy();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }
}
