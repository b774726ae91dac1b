package io.hbasesessions.benchmarks;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** How the suite runs its JMH benchmarks: from its own JVM, silently, in microseconds, at the size of the run. */
public final class Jmh {

    private Jmh() {
    }

    /** The benchmarks of {@code benchmark}, half as many warm-up iterations as measured ones (at least 1). */
    public static ChainedOptionsBuilder options(Class<?> benchmark, int forks, int iterations, Duration iterationTime) {
        TimeValue time = TimeValue.milliseconds(iterationTime.toMillis());
        return new OptionsBuilder()
                .include(benchmark.getName() + "\\.")
                .forks(forks)
                .warmupIterations(Math.max(1, iterations / 2))
                .warmupTime(time)
                .measurementIterations(iterations)
                .measurementTime(time)
                .timeUnit(TimeUnit.MICROSECONDS)
                .verbosity(VerboseMode.SILENT);
    }
}
