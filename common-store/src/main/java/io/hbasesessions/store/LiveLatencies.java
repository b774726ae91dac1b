package io.hbasesessions.store;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The latency of every store call that completed, per {@link StoreOperation}, since the store opened: an
 * HdrHistogram of microseconds (two significant digits, so percentiles are within 1 %) and the exact total.
 * Calls that failed are counted by {@code errors}, not here: a timeout is the timeout setting, not a latency.
 */
final class LiveLatencies {

    private static final int SIGNIFICANT_DIGITS = 2;

    private record Recorded(ConcurrentHistogram micros, LongAdder totalNanos) {
    }

    private final Map<StoreOperation, Recorded> byOperation = new EnumMap<>(StoreOperation.class);

    LiveLatencies() {
        for (StoreOperation operation : StoreOperation.values()) {
            byOperation.put(operation, new Recorded(new ConcurrentHistogram(SIGNIFICANT_DIGITS), new LongAdder()));
        }
    }

    /** Records a call of {@code operation} that started at {@code startedNanos} ({@link System#nanoTime()}) and ended now. */
    void record(StoreOperation operation, long startedNanos) {
        long nanos = Math.max(0, System.nanoTime() - startedNanos);
        Recorded recorded = byOperation.get(operation);
        recorded.micros().recordValue(Math.max(1, nanos / 1_000));
        recorded.totalNanos().add(nanos);
    }

    /** Records a save by what it did: a new session, a touch or a write; one that wrote nothing is not recorded. */
    void recordSave(boolean newSession, SaveResult result, long startedNanos) {
        if (result.wroteSomething()) {
            record(newSession ? StoreOperation.CREATE
                    : result == SaveResult.TOUCHED ? StoreOperation.TOUCH : StoreOperation.SAVE, startedNanos);
        }
    }

    StoreLatencies snapshot() {
        Map<StoreOperation, StoreLatencies.Latency> latencies = new EnumMap<>(StoreOperation.class);
        byOperation.forEach((operation, recorded) -> {
            ConcurrentHistogram micros = recorded.micros().copy();
            latencies.put(operation, new StoreLatencies.Latency(micros.getTotalCount(),
                    recorded.totalNanos().sum() / 1e6, millis(micros.getValueAtPercentile(50)),
                    millis(micros.getValueAtPercentile(90)), millis(micros.getValueAtPercentile(99)),
                    millis(micros.getMaxValue())));
        });
        return new StoreLatencies(latencies);
    }

    private static double millis(long micros) {
        return micros / 1_000.0;
    }
}
