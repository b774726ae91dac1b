package io.hbasesessions.testing.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Everything a load run saw: each request's {@link Outcome}, the events marked during it (a kill, the
 * master noticing it), one machine sample per second, and what the answers said about acknowledged
 * writes while the load ran ({@code writesSeenLost}: a write answered with a counter that does not
 * include an earlier acknowledged write; {@code staleReads}: a read answered with an older counter).
 */
public record LoadRecord(long startNanos, List<Outcome> outcomes, List<Mark> marks,
        List<Sample> samples, long acknowledgedWrites, long writesSeenLost, long staleReads, List<String> violations) {

    /** An event, at {@link System#nanoTime()}. */
    public record Mark(String event, long nanos) {
    }

    /** The machine each second: CPU busy (0-1, every core) and the 1-minute load average. */
    public record Sample(long nanos, double cpuLoad, double loadAverage) {
    }

    /**
     * One second of the run, numbered from a mark (second 0 starts at the mark): requests by outcome,
     * latency of every request sent in it, and the machine.
     */
    public record Second(long second, long succeeded, long status503, long otherStatus, long noAnswer,
            long connectionFailed, long failedReads, long failedWrites, double p50Millis, double p99Millis,
            double maxMillis, double cpuLoad, double loadAverage) {
    }

    public static final String TIMELINE_HEADER = "second\tsucceeded\tstatus_503\tother_status\tno_answer\t"
            + "connection_failed\tfailed_reads\tfailed_writes\tp50_ms\tp99_ms\tmax_ms\tcpu_percent\tload_average";

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    /** When {@code event} was marked. */
    public long nanosOf(String event) {
        return marks.stream().filter(mark -> mark.event().equals(event)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("No mark '" + event + "' in " + marks)).nanos();
    }

    /** Seconds from the load's start to {@code event}. */
    public double secondsFromStart(String event) {
        return (nanosOf(event) - startNanos) / 1e9;
    }

    /** Seconds from {@code event} to {@code later}. */
    public double secondsBetween(String event, String later) {
        return (nanosOf(later) - nanosOf(event)) / 1e9;
    }

    public long count(Predicate<Outcome> which) {
        return outcomes.stream().filter(which).count();
    }

    /** Failed requests by status ({@link Outcome#NO_ANSWER}, {@link Outcome#CONNECTION_FAILED} included). */
    public Map<Integer, Long> failuresByStatus() {
        Map<Integer, Long> failures = new TreeMap<>();
        outcomes.stream().filter(outcome -> !outcome.succeeded()).forEach(outcome -> failures.merge(outcome.status(), 1L, Long::sum));
        return failures;
    }

    /** Seconds from {@code event} until the start of the last failed request sent after it; empty if none failed. */
    public Optional<Double> lastFailureAfter(String event) {
        long from = nanosOf(event);
        return outcomes.stream().filter(outcome -> !outcome.succeeded() && outcome.startNanos() >= from)
                .mapToLong(Outcome::startNanos).max().stream().mapToObj(last -> (last - from) / 1e9).findFirst();
    }

    /** The slowest answer of the requests that {@code which} selects, in milliseconds (0 if none). */
    public double maxLatencyMillis(Predicate<Outcome> which) {
        return outcomes.stream().filter(which).mapToDouble(Outcome::latencyMillis).max().orElse(0);
    }

    /** The {@code percentile} (0-100) of the latencies of the requests {@code which} selects, in milliseconds. */
    public double latencyPercentileMillis(Predicate<Outcome> which, double percentile) {
        return percentile(outcomes.stream().filter(which).mapToDouble(Outcome::latencyMillis).sorted().toArray(),
                percentile);
    }

    /** The highest load average sampled between two marks. */
    public double maxLoadAverageBetween(String event, String later) {
        long from = nanosOf(event);
        long to = nanosOf(later);
        return samples.stream().filter(sample -> sample.nanos() >= from && sample.nanos() <= to)
                .mapToDouble(Sample::loadAverage).max().orElse(Double.NaN);
    }

    /** The mean CPU busy fraction sampled between two marks. */
    public double meanCpuLoadBetween(String event, String later) {
        long from = nanosOf(event);
        long to = nanosOf(later);
        return samples.stream().filter(sample -> sample.nanos() >= from && sample.nanos() <= to)
                .mapToDouble(Sample::cpuLoad).average().orElse(Double.NaN);
    }

    /** Every whole second of the run (the first and last, partly without load, are left out), numbered from {@code event}. */
    public List<Second> timeline(String event) {
        long zero = nanosOf(event);
        long lastSent = outcomes.stream().mapToLong(Outcome::startNanos).max().orElse(startNanos);
        long first = Math.floorDiv(startNanos - zero, NANOS_PER_SECOND) + 1;
        long last = Math.floorDiv(lastSent - zero, NANOS_PER_SECOND) - 1;
        TreeMap<Long, List<Outcome>> bySecond = new TreeMap<>();
        for (long second = first; second <= last; second++) {
            bySecond.put(second, new ArrayList<>());
        }
        for (Outcome outcome : outcomes) {
            List<Outcome> in = bySecond.get(Math.floorDiv(outcome.startNanos() - zero, NANOS_PER_SECOND));
            if (in != null) {
                in.add(outcome);
            }
        }
        TreeMap<Long, Sample> samplesBySecond = new TreeMap<>();
        samples.forEach(sample -> samplesBySecond.put(Math.floorDiv(sample.nanos() - zero, NANOS_PER_SECOND), sample));
        List<Second> seconds = new ArrayList<>();
        bySecond.forEach((second, in) -> {
            double[] latencies = in.stream().mapToDouble(Outcome::latencyMillis).sorted().toArray();
            Map.Entry<Long, Sample> sample = Optional.ofNullable(samplesBySecond.floorEntry(second))
                    .orElse(samplesBySecond.ceilingEntry(second));
            seconds.add(new Second(second,
                    in.stream().filter(Outcome::succeeded).count(),
                    in.stream().filter(outcome -> outcome.status() == 503).count(),
                    in.stream().filter(outcome -> !outcome.succeeded() && outcome.status() > 0 && outcome.status() != 503).count(),
                    in.stream().filter(outcome -> outcome.status() == Outcome.NO_ANSWER).count(),
                    in.stream().filter(outcome -> outcome.status() == Outcome.CONNECTION_FAILED).count(),
                    in.stream().filter(outcome -> !outcome.succeeded() && !outcome.write()).count(),
                    in.stream().filter(outcome -> !outcome.succeeded() && outcome.write()).count(),
                    percentile(latencies, 50), percentile(latencies, 99), latencies.length == 0 ? 0 : latencies[latencies.length - 1],
                    sample == null ? Double.NaN : sample.getValue().cpuLoad(),
                    sample == null ? Double.NaN : sample.getValue().loadAverage()));
        });
        return seconds;
    }

    /** The timeline as tab-separated values with a {@link #TIMELINE_HEADER} line, for gnuplot. */
    public Path writeTimeline(Path file, String event) throws IOException {
        List<String> lines = new ArrayList<>(List.of(TIMELINE_HEADER));
        for (Second s : timeline(event)) {
            lines.add(String.format(Locale.ROOT, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.0f\t%.2f", s.second(),
                    s.succeeded(), s.status503(), s.otherStatus(), s.noAnswer(), s.connectionFailed(), s.failedReads(),
                    s.failedWrites(), s.p50Millis(), s.p99Millis(), s.maxMillis(), s.cpuLoad() * 100, s.loadAverage()));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.write(file, lines);
    }

    /**
     * Every request as tab-separated values: when it was sent (seconds from {@code event}), its latency,
     * node, whether it wrote, and its status; for looking into one run.
     */
    public Path writeOutcomes(Path file, String event) throws IOException {
        long zero = nanosOf(event);
        List<String> lines = new ArrayList<>(List.of("sent_s\tlatency_ms\tnode\twrite\tstatus"));
        for (Outcome outcome : outcomes) {
            lines.add(String.format(Locale.ROOT, "%.3f\t%.1f\t%d\t%b\t%d", (outcome.startNanos() - zero) / 1e9,
                    outcome.latencyMillis(), outcome.node(), outcome.write(), outcome.status()));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        return Files.write(file, lines);
    }

    private static double percentile(double[] sorted, double percentile) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
