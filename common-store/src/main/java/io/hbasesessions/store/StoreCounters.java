package io.hbasesessions.store;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.StringJoiner;

/** A snapshot of a store's {@link StoreCounter}s since it was opened, for JMX, metrics and benchmarks. */
public final class StoreCounters {

    private final Map<StoreCounter, Long> values;

    StoreCounters(Map<StoreCounter, Long> values) {
        this.values = Collections.unmodifiableMap(new EnumMap<>(values));
    }

    /** All zero: what a stopped store reports. */
    public static StoreCounters none() {
        return new StoreCounters(new EnumMap<>(StoreCounter.class));
    }

    public long get(StoreCounter counter) {
        return values.getOrDefault(counter, 0L);
    }

    /** Every write that reached HBase for a session row. */
    public long sessionWrites() {
        long writes = 0;
        for (StoreCounter counter : StoreCounter.values()) {
            writes += counter.isSessionWrite() ? get(counter) : 0;
        }
        return writes;
    }

    @Override
    public String toString() {
        StringJoiner text = new StringJoiner(", ", "StoreCounters{", "}");
        for (StoreCounter counter : StoreCounter.values()) {
            text.add(counter.counterName() + "=" + get(counter));
        }
        return text.toString();
    }
}
