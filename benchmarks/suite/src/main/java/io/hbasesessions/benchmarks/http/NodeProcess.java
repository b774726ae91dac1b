package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.node.NodeConsole;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A container node (Tomcat or Jetty) in its own JVM, with the classpath its module wrote, driven
 * through {@link NodeConsole}. Its log (stderr) goes to a file; stdout carries the protocol.
 */
public final class NodeProcess implements AutoCloseable {

    /** The same for every node, so heap figures compare. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms2g", "-Xmx2g", "-XX:+UseG1GC",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn");
    private static final long STOP_WAIT_SECONDS = 30;

    private final Process process;
    private final BufferedReader replies;
    private final PrintWriter commands;
    private final int port;

    private NodeProcess(Process process) throws IOException {
        this.process = process;
        this.replies = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.port = Math.toIntExact(NodeConsole.parse(NodeConsole.READY, readyLine()).get("port"));
    }

    /** The JVM may print before the node does (a flight recording announces itself on stdout). */
    private String readyLine() throws IOException {
        String line = replies.readLine();
        while (line != null && !line.startsWith(NodeConsole.READY + " ")) {
            line = replies.readLine();
        }
        return line;
    }

    /**
     * Starts {@code mainClass} with the classpath listed in {@code classpathResource} (a resource of the
     * node's module, which is on this classpath without its dependencies) and waits until it serves.
     * {@code arguments} are the node's {@code name=value} pairs. With {@code profile}, the node records
     * a JFR profile next to its log, written when it stops.
     */
    public static NodeProcess start(String mainClass, String classpathResource, List<String> arguments, Path log,
            boolean profile) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        if (profile) {
            command.add(flightRecording(log.resolveSibling(log.getFileName().toString().replace(".log", ".jfr"))));
        }
        command.add("-cp");
        command.add(classpath(classpathResource));
        command.add(mainClass);
        command.addAll(arguments);
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        try {
            return new NodeProcess(process);
        } catch (IOException | RuntimeException e) {
            process.destroyForcibly();
            throw new IllegalStateException("The node " + mainClass + " " + arguments + " did not start: see " + log, e);
        }
    }

    /** The JVM option that records a JFR profile (sampling every 10-20 ms) into {@code file} when the JVM exits. */
    public static String flightRecording(Path file) {
        return "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + file;
    }

    public URI baseUri() {
        return URI.create("http://127.0.0.1:" + port + "/app/");
    }

    /** The node's counters: {@code activeSessions}, and for HBase stores {@code sessionWrites}, {@code loads}... */
    public Map<String, Long> counters() throws IOException {
        commands.println("counters");
        return NodeConsole.parse(NodeConsole.COUNTERS, replies.readLine());
    }

    /** Heap in use after full collections. */
    public long heapUsedBytes() throws IOException {
        commands.println("heap");
        return NodeConsole.parse(NodeConsole.HEAP, replies.readLine()).get("usedBytes");
    }

    @Override
    public void close() throws InterruptedException {
        commands.println(NodeConsole.STOP);
        commands.close();
        if (!process.waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** The node module's own classes (jar or directory) first, then the jars it listed. */
    private static String classpath(String resource) {
        URL listing = NodeProcess.class.getClassLoader().getResource(resource);
        if (listing == null) {
            throw new IllegalStateException("The resource " + resource + " is missing from the classpath: build "
                    + "the benchmarks with Maven first (benchmarks/run.sh does)");
        }
        try {
            String listed = new String(listing.openStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return moduleLocation(listing, resource) + File.pathSeparator + listed;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code jar:file:/x/node.jar!/io/...} -> {@code /x/node.jar}; {@code file:/x/classes/io/...} -> {@code /x/classes}. */
    private static String moduleLocation(URL listing, String resource) {
        String url = listing.toString();
        try {
            if (url.startsWith("jar:")) {
                return Path.of(new URI(url.substring("jar:".length(), url.indexOf("!/")))).toString();
            }
            String path = Path.of(listing.toURI()).toString();
            return path.substring(0, path.length() - resource.length());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot locate the node module from " + url, e);
        }
    }
}
