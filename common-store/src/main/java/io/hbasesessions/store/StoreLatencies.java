package io.hbasesessions.store;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * How long a store's calls took, per {@link StoreOperation}, from its opening to one moment: calls that
 * completed only (failures are {@code errors}). JMX shows each as attributes named operation + statistic
 * ({@code loadCount}, {@code loadTotalMillis}, {@code loadP50Millis}, {@code loadP90Millis},
 * {@code loadP99Millis}, {@code loadMaxMillis}); metrics libraries take the count and total.
 */
public final class StoreLatencies {

    /** The statistics of one operation; percentiles within 1 %, in milliseconds (0 when there was no call). */
    public record Latency(long count, double totalMillis, double p50Millis, double p90Millis, double p99Millis,
            double maxMillis) {
    }

    private enum Statistic {
        COUNT("Count", Latency::count),
        TOTAL("TotalMillis", Latency::totalMillis),
        P50("P50Millis", Latency::p50Millis),
        P90("P90Millis", Latency::p90Millis),
        P99("P99Millis", Latency::p99Millis),
        MAX("MaxMillis", Latency::maxMillis);

        private final String suffix;
        private final Function<Latency, Number> value;

        Statistic(String suffix, Function<Latency, Number> value) {
            this.suffix = suffix;
            this.value = value;
        }
    }

    private final Map<StoreOperation, Latency> latencies;

    StoreLatencies(Map<StoreOperation, Latency> latencies) {
        this.latencies = new EnumMap<>(latencies);
    }

    public Latency get(StoreOperation operation) {
        return latencies.get(operation);
    }

    /** Every statistic by attribute name: a {@code Long} count, {@code Double} milliseconds otherwise. */
    public Map<String, Number> byAttributeName() {
        Map<String, Number> named = new LinkedHashMap<>();
        latencies.forEach((operation, latency) -> {
            for (Statistic statistic : Statistic.values()) {
                named.put(operation.operationName() + statistic.suffix, statistic.value.apply(latency));
            }
        });
        return named;
    }
}
