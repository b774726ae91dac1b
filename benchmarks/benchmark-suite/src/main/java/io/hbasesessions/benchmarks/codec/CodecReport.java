package io.hbasesessions.benchmarks.codec;

import io.hbasesessions.benchmarks.Jmh;
import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.benchmarks.webapp.BenchmarkSession;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.StateCellBenchmark;
import io.hbasesessions.store.StateProtection;
import io.hbasesessions.store.codec.SessionCodec;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;

/** Part 1: bytes of the realistic session per codec, and JMH's write and read times. */
public final class CodecReport {

    private CodecReport() {
    }

    public static void run(Report report, int forks, int iterations, Duration iterationTime) throws RunnerException {
        report.heading("1. Codec: Kryo vs Java serialization (JMH)");
        Map<String, Object> attributes = BenchmarkSession.attributes(42, Instant.parse("2026-01-01T12:00:00Z"));
        Map<SerializerKind, Long> bytes = new LinkedHashMap<>();
        for (SerializerKind kind : SerializerKind.values()) {
            bytes.put(kind, CodecBenchmark.encode(SessionCodec.of(kind, BenchmarkSession.class.getClassLoader()), attributes).values().stream()
                    .mapToLong(b -> b.length).sum());
        }
        Map<String, Double> microseconds = timings(CodecBenchmark.class, "codec", forks, iterations, iterationTime);

        long javaBytes = bytes.get(SerializerKind.JAVA);
        List<List<String>> rows = new ArrayList<>();
        for (SerializerKind kind : SerializerKind.values()) {
            double write = microseconds.getOrDefault("write/" + kind, Double.NaN);
            double read = microseconds.getOrDefault("read/" + kind, Double.NaN);
            double javaWrite = microseconds.getOrDefault("write/JAVA", Double.NaN);
            double javaRead = microseconds.getOrDefault("read/JAVA", Double.NaN);
            rows.add(Report.cells(kind.name().toLowerCase(), bytes.get(kind), Report.ratio(bytes.get(kind), javaBytes),
                    Report.number(write), Report.ratio(write, javaWrite), Report.number(read), Report.ratio(read, javaRead)));
        }
        report.table(List.of("codec", "bytes", "vs java", "write µs", "vs java", "read µs", "vs java"), rows);
        double kryoShare = (double) bytes.get(SerializerKind.KRYO) / javaBytes;
        report.note(String.format("Session: %d attributes (a cart of 10 items, a user profile, timestamps, strings, "
                + "numbers), each serialized on its own as the store does; %d bytes in Java form. Target: Kryo at "
                + "most 0.5x the bytes of Java serialization: %.2fx, %s. JMH: %d fork(s), %d iterations of %d ms "
                + "(average time per whole session).", attributes.size(), javaBytes, kryoShare,
                kryoShare <= 0.5 ? "met" : "missed", forks, iterations, iterationTime.toMillis()));
    }

    /**
     * Part 1b: the realistic session's state cell serialized and sealed (a save), opened and parsed (a
     * load), under each {@code stateProtection}, as ratios to {@code none} measured in the same run.
     */
    public static void runStateProtection(Report report, int forks, int iterations, Duration iterationTime)
            throws RunnerException, IOException {
        report.heading("1b. State cell protection: none vs hmac vs encrypt (JMH)");
        Map<String, Double> microseconds = timings(StateCellBenchmark.class, "stateProtection", forks, iterations,
                iterationTime);
        double noneWrite = microseconds.getOrDefault("write/NONE", Double.NaN);
        double noneRead = microseconds.getOrDefault("read/NONE", Double.NaN);
        int noneBytes = StateCellBenchmark.cellBytes(StateProtection.NONE);
        List<List<String>> rows = new ArrayList<>();
        for (StateProtection mode : StateProtection.values()) {
            double write = microseconds.getOrDefault("write/" + mode, Double.NaN);
            double read = microseconds.getOrDefault("read/" + mode, Double.NaN);
            int bytes = StateCellBenchmark.cellBytes(mode);
            rows.add(Report.cells(mode.name().toLowerCase(), bytes, "+" + (bytes - noneBytes), Report.number(write),
                    Report.ratio(write, noneWrite), Report.number(read), Report.ratio(read, noneRead)));
        }
        report.table(List.of("stateProtection", "cell bytes", "vs none", "write µs", "vs none", "read µs", "vs none"),
                rows);
        report.note(String.format("In memory, no HBase: write = the state cell serialized and sealed (HMAC-SHA256, "
                + "or AES-GCM with a fresh nonce), read = the cell opened (tag checked, or decrypted) and parsed; "
                + "attribute values are encoded beforehand and decoded later, as in the store. Section 2b gives the "
                + "same modes through the store against HBase. JMH: %d fork(s), %d iterations of %d ms.", forks,
                iterations, iterationTime.toMillis()));
    }

    /** Average microseconds per operation by "benchmark/parameter value", e.g. {@code write/KRYO}. */
    private static Map<String, Double> timings(Class<?> benchmark, String parameter, int forks, int iterations,
            Duration iterationTime) throws RunnerException {
        var options = Jmh.options(benchmark, forks, iterations, iterationTime).build();
        Map<String, Double> timings = new LinkedHashMap<>();
        for (RunResult result : new Runner(options).run()) {
            String method = result.getParams().getBenchmark();
            String name = method.substring(method.lastIndexOf('.') + 1) + "/" + result.getParams().getParam(parameter);
            timings.put(name, result.getPrimaryResult().getScore());
        }
        return timings;
    }
}
