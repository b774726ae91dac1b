package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.testing.Browser;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer.OrderAnnotation;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The demo as README.md starts it: {@code ./demo.sh}, with free ports and a data directory of its own.
 * The build has already happened in this Maven run, so the script is told to skip it
 * ({@code HBASE_SESSIONS_SKIP_BUILD=1}). It runs as a terminal runs a command (its own process group,
 * SIGINT not ignored: Linux's {@code setsid} and coreutils' {@code env --default-signal}), so that
 * SIGINT to that group is exactly what Ctrl-C does.
 *
 * <p>"No process left" is checked on the process tree taken while the demo ran, and on every process
 * of the machine whose command line names the demo's data directory (which catches orphans too).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(OrderAnnotation.class)
class DemoCommandIT {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration BAD_INPUT_TIMEOUT = Duration.ofSeconds(60);

    private final Path work = Path.of("target", "demo-it").toAbsolutePath();
    private final Path dataDirectory = work.resolve("data");
    private int tomcatPort;
    private int jettyPort;
    private Demo demo;

    @BeforeAll
    void startTheDemo() throws Exception {
        FileTrees.deleteRecursively(work);
        Files.createDirectories(work);
        tomcatPort = ServerProcess.freePort();
        jettyPort = ServerProcess.freePort();
        demo = Demo.start(work.resolve("demo.log"), "--tomcat-port", Integer.toString(tomcatPort),
                "--jetty-port", Integer.toString(jettyPort), "--data-dir", dataDirectory.toString());
        demo.awaitOutput("Press Ctrl-C", START_TIMEOUT);
    }

    @AfterAll
    void stopWhatIsLeft() throws Exception {
        if (demo != null) {
            demo.kill();
        }
    }

    @Test
    @Order(1)
    void printsBothNodesUrls() throws IOException {
        String output = demo.output();
        assertTrue(output.contains("Starting HBase in " + dataDirectory), output);
        assertTrue(output.contains(shop(tomcatPort) + "   Apache Tomcat/10.1."), output);
        assertTrue(output.contains(shop(jettyPort) + "   jetty/12.1."), output);
    }

    @Test
    @Order(2)
    void aCartItemAddedOnOneNodeIsSeenOnTheOther() throws Exception {
        Browser browser = new Browser();
        browser.post(shop(tomcatPort), Map.of("action", "add", "sku", "mug")).expect(302);
        Map<String, String> onJetty = browser.get(shop(jettyPort).resolve("cart.txt")).expect(200).values();
        assertEquals("jetty-node", onJetty.get("node"));
        assertEquals("1", onJetty.get("item.mug"), "Jetty does not see the item added on Tomcat: " + onJetty);

        browser.post(shop(jettyPort), Map.of("action", "add", "sku", "tee", "quantity", "2")).expect(302);
        Map<String, String> onTomcat = browser.get(shop(tomcatPort).resolve("cart.txt")).expect(200).values();
        assertEquals("tomcat-node", onTomcat.get("node"));
        assertEquals("1", onTomcat.get("item.mug"), onTomcat.toString());
        assertEquals("2", onTomcat.get("item.tee"), "Tomcat does not see the item added on Jetty: " + onTomcat);
        assertEquals(onJetty.get("session"), onTomcat.get("session"), "one session, one fingerprint on both nodes");
    }

    @Test
    @Order(3)
    void anotherDemoOnTakenPortsSaysSoAndLeavesNoProcess() throws Exception {
        Path otherData = work.resolve("other-data");
        Demo other = Demo.start(work.resolve("ports-taken.log"), "--tomcat-port", Integer.toString(tomcatPort),
                "--jetty-port", Integer.toString(ServerProcess.freePort()), "--data-dir", otherData.toString());

        assertEquals(1, other.awaitExit(BAD_INPUT_TIMEOUT));
        assertEquals(List.of("error: Port " + tomcatPort + " is already in use: stop what listens on it, or choose "
                + "another port with --tomcat-port"), other.output().lines().toList());
        assertEquals(List.of(), processesNaming(otherData));
    }

    @Test
    @Order(4)
    void anotherDemoOnTheSameDataDirectorySaysSoAndLeavesNoProcess() throws Exception {
        List<ProcessHandle> before = processesNaming(dataDirectory);
        Demo other = Demo.start(work.resolve("data-in-use.log"), "--tomcat-port", Integer.toString(ServerProcess.freePort()),
                "--jetty-port", Integer.toString(ServerProcess.freePort()), "--data-dir", dataDirectory.toString());

        assertEquals(1, other.awaitExit(BAD_INPUT_TIMEOUT));
        List<String> errors = other.output().lines().filter(line -> line.startsWith("error:")).toList();
        assertEquals(List.of("error: The data directory " + dataDirectory + " is already used by another running embedded "
                + "HBase: stop that one first, or choose another data directory"), errors, other.output());
        assertEquals(before, processesNaming(dataDirectory), "the second demo left a process, or stopped one of the first");
    }

    @Test
    @Order(5)
    void ctrlCStopsEveryProcessOfTheDemo() throws Exception {
        List<ProcessHandle> tree = demo.processTree();
        assertEquals(4, tree.size(), "the launcher, HBase and two nodes: " + describe(tree));

        demo.interruptLikeCtrlC();

        assertEquals(130, demo.awaitExit(STOP_TIMEOUT), "the launcher's exit code after Ctrl-C");
        assertEquals(List.of(), describe(tree.stream().filter(ProcessHandle::isAlive).toList()), "still running");
        assertEquals(List.of(), describe(processesNaming(dataDirectory)), "still running");
        assertTrue(demo.output().contains("Stopped. The sessions stay in " + dataDirectory), demo.output());
    }

    @Test
    @Order(6)
    void aKilledLauncherTakesHBaseAndTheNodesAlong() throws Exception {
        demo = Demo.start(work.resolve("killed.log"), "--tomcat-port", Integer.toString(tomcatPort),
                "--jetty-port", Integer.toString(jettyPort), "--data-dir", dataDirectory.toString());
        demo.awaitOutput("Press Ctrl-C", START_TIMEOUT);
        List<ProcessHandle> tree = demo.processTree();
        ProcessHandle launcher = demo.launcher();

        launcher.destroyForcibly();

        Instant deadline = Instant.now().plus(STOP_TIMEOUT);
        while (tree.stream().anyMatch(ProcessHandle::isAlive) && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
        }
        assertEquals(List.of(), describe(tree.stream().filter(ProcessHandle::isAlive).toList()), "outlived the launcher");
        assertEquals(List.of(), describe(processesNaming(dataDirectory)), "outlived the launcher");
    }

    private static URI shop(int port) {
        return URI.create("http://localhost:" + port + "/shop/");
    }

    /** Every process of this machine whose command line names {@code directory}. */
    private static List<ProcessHandle> processesNaming(Path directory) {
        String name = directory.toString();
        return ProcessHandle.allProcesses()
                .filter(process -> process.info().commandLine().map(line -> line.contains(name)).orElse(false))
                .toList();
    }

    private static List<String> describe(List<ProcessHandle> processes) {
        return processes.stream().map(process -> process.pid() + " " + process.info().commandLine().orElse("?")).toList();
    }

    /** {@code demo.sh} with its output (stdout and stderr) in a file. */
    private record Demo(Process process, Path log) {

        static Demo start(Path log, String... options) throws IOException {
            List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT", "setsid",
                    Path.of(System.getProperty("demo.script")).toRealPath().toString()));
            command.addAll(List.of(options));
            ProcessBuilder demo = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
            demo.environment().put("HBASE_SESSIONS_SKIP_BUILD", "1");
            return new Demo(demo.start(), log);
        }

        String output() throws IOException {
            return Files.readString(log);
        }

        void awaitOutput(String text, Duration timeout) throws IOException, InterruptedException {
            Instant deadline = Instant.now().plus(timeout);
            while (!output().contains(text)) {
                if (!process.isAlive() || Instant.now().isAfter(deadline)) {
                    throw new AssertionError("The demo did not print \"" + text + "\":\n" + output());
                }
                Thread.sleep(200);
            }
        }

        int awaitExit(Duration timeout) throws InterruptedException, IOException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("The demo did not exit within " + timeout + ":\n" + output());
            }
            return process.exitValue();
        }

        /** The launcher (demo.sh execs it; setsid made it a process group leader) and all its descendants. */
        List<ProcessHandle> processTree() {
            List<ProcessHandle> tree = new ArrayList<>(List.of(process.toHandle()));
            tree.addAll(process.descendants().toList());
            return tree;
        }

        /** The java launcher: demo.sh replaces itself with it. */
        ProcessHandle launcher() {
            return process.toHandle();
        }

        /** What a terminal does on Ctrl-C: SIGINT to every process of the foreground group. */
        void interruptLikeCtrlC() throws IOException, InterruptedException {
            Process kill = new ProcessBuilder("kill", "-INT", "--", "-" + process.pid()).inheritIO().start();
            assertEquals(0, kill.waitFor(), "kill -INT failed");
        }

        void kill() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
