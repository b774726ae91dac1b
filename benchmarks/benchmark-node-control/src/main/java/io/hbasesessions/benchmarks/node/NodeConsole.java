package io.hbasesessions.benchmarks.node;

import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The node's end of the control protocol with the benchmark driver, on a loopback socket (the node's
 * stdin belongs to the launcher's watchdog). Once the node serves, it listens and prints
 * {@code CONTROL port=N}; the driver connects ({@link NodeControl}), and each command line gets one
 * reply line: {@code counters} -> {@code COUNTERS name=value ...}, {@code heap} -> {@code HEAP usedBytes=N}
 * (after full collections), {@code stop} -> stops the container. The end of the connection stops it too.
 */
public final class NodeConsole {

    public static final String CONTROL = "CONTROL";
    public static final String COUNTERS = "COUNTERS";
    public static final String HEAP = "HEAP";
    public static final String STOP = "stop";

    private NodeConsole() {
    }

    /** Announces the control port, then answers commands until {@code stop} or the end of the connection, then runs {@code stop}. */
    public static void serve(Supplier<Map<String, Long>> counters, Runnable stop) throws IOException {
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            System.out.println(CONTROL + " port=" + listener.getLocalPort());
            System.out.flush();
            try (Socket driver = listener.accept();
                    BufferedReader commands = new BufferedReader(new InputStreamReader(driver.getInputStream(),
                            StandardCharsets.UTF_8));
                    PrintWriter replies = new PrintWriter(driver.getOutputStream(), true, StandardCharsets.UTF_8)) {
                for (String command = commands.readLine(); command != null && !command.equals(STOP);
                        command = commands.readLine()) {
                    switch (command) {
                        case "counters" -> replies.println(line(COUNTERS, counters.get()));
                        case "heap" -> replies.println(line(HEAP, Map.of("usedBytes", heapUsedAfterGc())));
                        default -> System.err.println("Unknown command: " + command);
                    }
                }
            } finally {
                stop.run();
            }
        }
    }

    /**
     * The counters a node reports: the sessions its container holds in memory and, when its sessions are
     * in HBase ({@code hbaseStore} not null), the store's writes (expiry index entries apart), loads, conflicts, how its calls
     * travelled (alone or in multi-actions), and with {@code stickySessions} the loads its copies answered and the changes
     * of other nodes it heard of or announced.
     */
    public static Map<String, Long> counters(long activeSessions, StoreCounters hbaseStore) {
        Map<String, Long> counters = new LinkedHashMap<>();
        counters.put("activeSessions", activeSessions);
        if (hbaseStore != null) {
            counters.put("sessionWrites", hbaseStore.sessionWrites());
            counters.put("expiryEntries", hbaseStore.get(StoreCounter.EXPIRY_ENTRIES));
            counters.put("loads", hbaseStore.get(StoreCounter.LOADS));
            counters.put("conflicts", hbaseStore.get(StoreCounter.CONFLICTS));
            counters.put("conflictRetries", hbaseStore.get(StoreCounter.CONFLICT_RETRIES));
            counters.put("callsSentAlone", hbaseStore.get(StoreCounter.CALLS_SENT_ALONE));
            counters.put("multiActions", hbaseStore.get(StoreCounter.MULTI_ACTIONS));
            counters.put("callsInMultiActions", hbaseStore.get(StoreCounter.CALLS_IN_MULTI_ACTIONS));
            counters.put("stickyHits", hbaseStore.get(StoreCounter.STICKY_HITS));
            counters.put("stickyMisses", hbaseStore.get(StoreCounter.STICKY_MISSES));
            counters.put("stickyInvalidations", hbaseStore.get(StoreCounter.STICKY_INVALIDATIONS));
            counters.put("changesAnnounced", hbaseStore.get(StoreCounter.CHANGES_ANNOUNCED));
        }
        return counters;
    }

    /** Parses a line {@code KIND name=value ...} into its values; the kind must match. */
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

    private static String line(String kind, Map<String, Long> values) {
        StringBuilder line = new StringBuilder(kind);
        values.forEach((name, value) -> line.append(' ').append(name).append('=').append(value));
        return line.toString();
    }

    /** Several collections: one may leave garbage that a finalizer or reference queue frees only in the next. */
    private static long heapUsedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
