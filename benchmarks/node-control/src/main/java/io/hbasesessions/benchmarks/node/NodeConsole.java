package io.hbasesessions.benchmarks.node;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The node's end of the line protocol with the driver, on the node's stdin and stdout. The node prints
 * {@code READY port=N} once it serves; then each command line gets one reply line:
 * {@code counters} -> {@code COUNTERS name=value ...}, {@code heap} -> {@code HEAP usedBytes=N} (after a
 * full collection), {@code stop} -> stops the container. End of input stops it too, so a node never
 * outlives a driver that died.
 */
public final class NodeConsole {

    public static final String READY = "READY";
    public static final String COUNTERS = "COUNTERS";
    public static final String HEAP = "HEAP";
    public static final String STOP = "stop";

    private NodeConsole() {
    }

    /** Announces the port, then answers commands until {@code stop} or end of input, then runs {@code stop}. */
    public static void serve(int port, Supplier<Map<String, Long>> counters, Runnable stop) throws IOException {
        reply(READY, Map.of("port", (long) port));
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try {
            for (String command = commands.readLine(); command != null && !command.equals(STOP);
                    command = commands.readLine()) {
                switch (command) {
                    case "counters" -> reply(COUNTERS, counters.get());
                    case "heap" -> reply(HEAP, Map.of("usedBytes", heapUsedAfterGc()));
                    default -> System.err.println("Unknown command: " + command);
                }
            }
        } finally {
            stop.run();
        }
    }

    /** Parses a reply line {@code KIND name=value ...} into its values; the kind must match. */
    public static Map<String, Long> parse(String kind, String line) {
        if (line == null || !line.startsWith(kind + " ")) {
            throw new IllegalStateException("Expected a " + kind + " line from the node, got: " + line);
        }
        Map<String, Long> values = new LinkedHashMap<>();
        for (String pair : line.substring(kind.length() + 1).trim().split(" ")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals), Long.parseLong(pair.substring(equals + 1)));
        }
        return values;
    }

    private static void reply(String kind, Map<String, Long> values) {
        StringBuilder line = new StringBuilder(kind);
        values.forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
        System.out.println(line);
        System.out.flush();
    }

    /** Several collections: one may leave garbage that a finalizer or reference queue frees only in the next. */
    private static long heapUsedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
