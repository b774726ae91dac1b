package io.hbasesessions.benchmarks.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The driver's end of the control protocol: a connection to the {@link NodeConsole} of one node. */
public final class NodeControl implements AutoCloseable {

    private final Socket socket;
    private final BufferedReader replies;
    private final PrintWriter commands;

    private NodeControl(Socket socket) throws IOException {
        this.socket = socket;
        this.replies = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        this.commands = new PrintWriter(socket.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /** Connects to the node that printed {@code controlLine} ({@code CONTROL port=N}). */
    public static NodeControl connect(String controlLine) throws IOException {
        int port = Math.toIntExact(NodeConsole.parse(NodeConsole.CONTROL, controlLine).get("port"));
        return new NodeControl(new Socket(InetAddress.getLoopbackAddress(), port));
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

    /** Tells the node to stop its container. */
    @Override
    public void close() throws IOException {
        commands.println(NodeConsole.STOP);
        socket.close();
    }
}
