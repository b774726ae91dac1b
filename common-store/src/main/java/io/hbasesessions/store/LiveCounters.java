package io.hbasesessions.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/** The store's activity counters; LongAdders because every request thread updates them. */
final class LiveCounters {

    private final Map<StoreCounter, LongAdder> adders = new EnumMap<>(StoreCounter.class);

    LiveCounters() {
        for (StoreCounter counter : StoreCounter.values()) {
            adders.put(counter, new LongAdder());
        }
    }

    void increment(StoreCounter counter) {
        adders.get(counter).increment();
    }

    void add(StoreCounter counter, long amount) {
        adders.get(counter).add(amount);
    }

    StoreCounters snapshot() {
        Map<StoreCounter, Long> values = new EnumMap<>(StoreCounter.class);
        adders.forEach((counter, adder) -> values.put(counter, adder.sum()));
        return new StoreCounters(values);
    }
}
