package io.hbasesessions.benchmarks.codec;

import io.hbasesessions.benchmarks.webapp.BenchmarkSession;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.codec.SessionCodec;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Writing and reading the realistic session with each codec, one attribute at a time as the store
 * does (each attribute is its own byte array in the state cell).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CodecBenchmark {

    @Param({"KRYO", "JAVA"})
    public SerializerKind codec;

    private SessionCodec sessionCodec;
    private Map<String, Object> attributes;
    private Map<String, byte[]> encoded;

    @Setup
    public void setUp() {
        sessionCodec = SessionCodec.of(codec, BenchmarkSession.class.getClassLoader());
        attributes = BenchmarkSession.attributes(42, Instant.parse("2026-01-01T12:00:00Z"));
        encoded = encode(sessionCodec, attributes);
    }

    @Benchmark
    public void write(Blackhole blackhole) {
        attributes.values().forEach(value -> blackhole.consume(sessionCodec.encode(value)));
    }

    @Benchmark
    public void read(Blackhole blackhole) {
        encoded.values().forEach(bytes -> blackhole.consume(sessionCodec.decode(bytes)));
    }

    /** Each attribute encoded alone, as the store writes them. */
    public static Map<String, byte[]> encode(SessionCodec codec, Map<String, Object> attributes) {
        Map<String, byte[]> encoded = new LinkedHashMap<>();
        attributes.forEach((name, value) -> encoded.put(name, codec.encode(value)));
        return encoded;
    }
}
