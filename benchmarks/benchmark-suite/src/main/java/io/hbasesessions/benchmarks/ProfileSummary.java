package io.hbasesessions.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * What the JFR profiles of a {@code --profile} run show, as Markdown: for each recording, how much of
 * the machine its JVM used while busy, and which share of its CPU samples ran inside each of a few
 * named parts of the request path (a sample counts for every part on its stack).
 */
public final class ProfileSummary {

    /** Part name -> pieces of a frame's "class.method" that mark it, separated by '|'. */
    private static final Map<String, String> PARTS = parts();
    /** A JVM below this share of the machine is idle (between runs) and left out of its average. */
    private static final double BUSY_MACHINE_SHARE = 0.05;

    private ProfileSummary() {
    }

    public static void main(String[] args) throws IOException {
        Report report = new Report();
        summarize(report, Path.of(args[0]));
    }

    /** Summarizes every {@code .jfr} file under {@code directory}. */
    public static void summarize(Report report, Path directory) throws IOException {
        report.heading("Profiles (JFR, CPU samples by part of the request path)");
        List<Path> recordings;
        try (Stream<Path> files = Files.walk(directory)) {
            recordings = files.filter(file -> file.toString().endsWith(".jfr")).sorted().toList();
        }
        List<String> columns = new ArrayList<>(List.of("recording", "JVM share of machine", "samples"));
        columns.addAll(PARTS.keySet());
        List<List<String>> rows = new ArrayList<>();
        for (Path recording : recordings) {
            rows.add(row(recording));
        }
        report.table(columns, rows);
        report.note("JVM share of machine: average of jdk.CPULoad (user + system) over the seconds it was busy. "
                + "Parts overlap (a Kryo read inside a store load counts for both).");
    }

    private static List<String> row(Path recording) throws IOException {
        long samples = 0;
        Map<String, Long> inPart = new LinkedHashMap<>();
        double busyLoad = 0;
        int busySeconds = 0;
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            String type = event.getEventType().getName();
            if (type.equals("jdk.CPULoad")) {
                double load = event.getFloat("jvmUser") + event.getFloat("jvmSystem");
                if (load >= BUSY_MACHINE_SHARE) {
                    busyLoad += load;
                    busySeconds++;
                }
            } else if (type.equals("jdk.ExecutionSample") && event.getStackTrace() != null) {
                samples++;
                Set<String> parts = partsOnStack(event.getStackTrace().getFrames());
                parts.forEach(part -> inPart.merge(part, 1L, Long::sum));
            }
        }
        List<String> row = new ArrayList<>(List.of(recording.getFileName().toString(),
                busySeconds == 0 ? "n/a" : String.format("%.0f%%", 100 * busyLoad / busySeconds), Long.toString(samples)));
        for (String part : PARTS.keySet()) {
            row.add(samples == 0 ? "n/a" : String.format("%.0f%%", 100.0 * inPart.getOrDefault(part, 0L) / samples));
        }
        return row;
    }

    private static Set<String> partsOnStack(List<RecordedFrame> frames) {
        Set<String> found = new HashSet<>();
        for (RecordedFrame frame : frames) {
            String method = frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
            PARTS.forEach((part, markers) -> {
                for (String marker : markers.split("\\|")) {
                    if (method.contains(marker)) {
                        found.add(part);
                    }
                }
            });
        }
        return found;
    }

    private static Map<String, String> parts() {
        Map<String, String> parts = new LinkedHashMap<>();
        parts.put("container's HTTP handling", "org.apache.coyote.AbstractProtocol$ConnectionHandler.process"
                + "|org.eclipse.jetty.server.internal.HttpConnection.onFillable");
        parts.put("store load", "io.hbasesessions.store.SessionProtocol.load");
        parts.put("store save", "io.hbasesessions.store.SessionProtocol.save");
        parts.put("Kryo read", "io.hbasesessions.store.codec.KryoCodec.decode");
        parts.put("Kryo write", "io.hbasesessions.store.codec.KryoCodec.encode");
        parts.put("HBase client calls", "org.apache.hadoop.hbase.client.RawAsyncTableImpl");
        parts.put("HBase client RPC", "org.apache.hadoop.hbase.ipc.");
        parts.put("HBase client tracing", "org.apache.hadoop.hbase.client.trace.");
        parts.put("netty event loops", "EventLoop.run");
        parts.put("HBase RPC handlers", "org.apache.hadoop.hbase.ipc.RpcHandler.run");
        parts.put("HBase get", "org.apache.hadoop.hbase.regionserver.RSRpcServices.get");
        parts.put("HBase checkAndMutate", "org.apache.hadoop.hbase.regionserver.RSRpcServices.checkAndMutate");
        parts.put("HBase WAL", "org.apache.hadoop.hbase.regionserver.wal.");
        parts.put("Redisson", "org.redisson.");
        parts.put("JDBC", "org.postgresql.");
        return parts;
    }
}
