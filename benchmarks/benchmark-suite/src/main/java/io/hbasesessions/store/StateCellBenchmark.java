package io.hbasesessions.store;

import io.hbasesessions.benchmarks.webapp.BenchmarkSession;
import io.hbasesessions.store.codec.SessionCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The state cell of the realistic session written and read in memory under each {@code stateProtection}:
 * what a save adds before its HBase call and a load after it. It lives in the store's package because
 * the cell format and the seal are package-private there, as the store's own tests reach them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StateCellBenchmark {

    private static final long VERSION = 42;

    @Param({"NONE", "HMAC", "ENCRYPT"})
    public StateProtection stateProtection;

    private final SessionKey key = SessionKey.forNewSession("/bench", "0123456789ABCDEF0123456789ABCDEF");
    private StateSeal seal;
    private StoredState state;
    private byte[] cell;

    @Setup
    public void setUp() throws IOException {
        seal = new StateSeal(stateProtection, Optional.of(StateKeys.load(newKeyFile())), new LiveCounters());
        state = realisticState();
        cell = seal.seal(key, VERSION, state.toBytes());
    }

    /** Serializing the state cell and sealing it, as a save does. */
    @Benchmark
    public byte[] write() {
        return seal.seal(key, VERSION, state.toBytes());
    }

    /** Opening the stored cell and parsing it, as a load does (the attributes are decoded later, when read). */
    @Benchmark
    public StoredState read() {
        return StoredState.parse(seal.open(key, VERSION, cell));
    }

    /** Bytes of the realistic session's cell under {@code protection}. */
    public static int cellBytes(StateProtection protection) throws IOException {
        StateCellBenchmark benchmark = new StateCellBenchmark();
        benchmark.stateProtection = protection;
        benchmark.setUp();
        return benchmark.cell.length;
    }

    private static StoredState realisticState() {
        SessionCodec kryo = SessionCodec.of(SerializerKind.KRYO, BenchmarkSession.class.getClassLoader());
        Instant now = Instant.parse("2026-01-01T12:00:00Z");
        StoredState.Builder builder = StoredState.newSession(SerializerKind.KRYO,
                SessionRecord.created("0123456789ABCDEF0123456789ABCDEF", now, Duration.ofMinutes(30))
                        .withLogin(new SessionPrincipal("user42", List.of("shopper"), "FORM"))).toBuilder();
        BenchmarkSession.attributes(42, now).forEach((name, value) -> builder.attribute(name, kryo.encode(value)));
        return builder.build();
    }

    private static Path newKeyFile() throws IOException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path file = Files.createTempFile("bench-state-keys", "");
        file.toFile().deleteOnExit();
        return Files.writeString(file, Base64.getEncoder().encodeToString(key));
    }
}
