package io.hbasesessions.micrometer;

import io.hbasesessions.store.OpenStores;
import io.hbasesessions.store.StoreCounter;
import io.hbasesessions.store.StoreCounters;
import io.hbasesessions.store.StoreLatencies;
import io.hbasesessions.store.StoreOperation;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Every session store of the JVM as Micrometer meters, under the names JMX uses
 * ({@code io.hbasesessions:type=SessionStore}), in Micrometer's dotted form:
 * <ul>
 *   <li>each counter as a {@code FunctionCounter} {@code hbase.sessions.<counter>} ({@code loads} is
 *       {@code hbase.sessions.loads}, {@code loadMisses} is {@code hbase.sessions.load.misses}; Prometheus
 *       shows {@code hbase_sessions_load_misses_total});</li>
 *   <li>each {@link StoreOperation} as a {@code FunctionTimer} {@code hbase.sessions.operation} tagged
 *       {@code operation=load|create|save|touch|delete|changeId|revoke|expirySweep} (count and total time of
 *       the calls that completed), and {@code TimeGauge}s {@code hbase.sessions.operation.p50},
 *       {@code .p99} and {@code .max} (since the store opened).</li>
 * </ul>
 * Every meter is tagged {@code keyScope} and {@code container} ({@code tomcat}, {@code jetty}, {@code shiro},
 * {@code none}). Stores opened after binding get their meters then; a store that closes loses its meters.
 * Close this binder when the application that bound it stops.
 */
public final class SessionStoreMetrics implements MeterBinder, AutoCloseable {

    private static final String PREFIX = "hbase.sessions.";
    /** Readings within this long share one snapshot: a scrape reads dozens of meters of one store. */
    private static final long SNAPSHOT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Tags extraTags;
    /** Micrometer holds a meter's state object weakly: the readings live here, as long as their store is open. */
    private record Registered(Readings readings, List<Meter> meters) {
    }

    private final Map<OpenStores.ObservedStore, Registered> registered = new IdentityHashMap<>();
    private MeterRegistry registry;
    private OpenStores.Watching watching;

    public SessionStoreMetrics() {
        this(Tags.empty());
    }

    /** @param extraTags tags added to every meter (a node name, say) */
    public SessionStoreMetrics(Iterable<Tag> extraTags) {
        this.extraTags = Tags.of(extraTags);
    }

    // The store list calls register and unregister under its own lock: this class never calls it holding its own.

    @Override
    public void bindTo(MeterRegistry meterRegistry) {
        synchronized (this) {
            if (registry != null) {
                throw new IllegalStateException("SessionStoreMetrics is bound already; make one per registry");
            }
            registry = meterRegistry;
        }
        OpenStores.Watching started = OpenStores.watch(new OpenStores.Watcher() {
            @Override
            public void opened(OpenStores.ObservedStore store) {
                register(store);
            }

            @Override
            public void closed(OpenStores.ObservedStore store) {
                unregister(store);
            }
        });
        synchronized (this) {
            watching = started;
        }
    }

    /** Stops watching and removes every meter this binder registered. */
    @Override
    public void close() {
        OpenStores.Watching stopping;
        synchronized (this) {
            stopping = watching;
            watching = null;
        }
        if (stopping != null) {
            stopping.close();
            synchronized (this) {
                List.copyOf(registered.keySet()).forEach(this::unregister);
            }
        }
    }

    private synchronized void register(OpenStores.ObservedStore store) {
        Tags tags = Tags.of("keyScope", store.keyScope(), "container", store.container().name().toLowerCase(Locale.ROOT))
                .and(extraTags);
        Readings readings = new Readings(store);
        List<Meter> meters = new ArrayList<>();
        for (StoreCounter counter : StoreCounter.values()) {
            meters.add(FunctionCounter.builder(PREFIX + dotted(counter.counterName()), readings,
                            read -> read.counters().get(counter))
                    .description(counter.description()).tags(tags)
                    .baseUnit(counter == StoreCounter.BYTES_WRITTEN ? "bytes" : null).register(registry));
        }
        for (StoreOperation operation : StoreOperation.values()) {
            Tags operationTags = tags.and("operation", operation.operationName());
            meters.add(FunctionTimer.builder(PREFIX + "operation", readings,
                            read -> read.latency(operation).count(), read -> read.latency(operation).totalMillis(),
                            TimeUnit.MILLISECONDS)
                    .description(operation.description() + " Calls that completed, and their total time.")
                    .tags(operationTags).register(registry));
            meters.add(gauge("operation.p50", readings, read -> read.latency(operation).p50Millis(), operationTags));
            meters.add(gauge("operation.p99", readings, read -> read.latency(operation).p99Millis(), operationTags));
            meters.add(gauge("operation.max", readings, read -> read.latency(operation).maxMillis(), operationTags));
        }
        registered.put(store, new Registered(readings, meters));
    }

    private Meter gauge(String name, Readings readings, ToDoubleFunction<Readings> millis, Tags tags) {
        return TimeGauge.builder(PREFIX + name, readings, TimeUnit.MILLISECONDS, millis)
                .description("Since the store opened, of the calls that completed").tags(tags).register(registry);
    }

    private synchronized void unregister(OpenStores.ObservedStore store) {
        Registered removed = registered.remove(store);
        if (removed != null) {
            removed.meters().forEach(registry::remove);
        }
    }

    /** {@code loadMisses} as {@code load.misses}: Micrometer's names are dotted, each registry renders its own. */
    static String dotted(String camelCase) {
        return camelCase.replaceAll("([a-z0-9])([A-Z])", "$1.$2").toLowerCase(Locale.ROOT);
    }

    /** One store's counters and latencies, read at most once per {@link #SNAPSHOT_NANOS}. */
    private static final class Readings {
        private final OpenStores.ObservedStore store;
        private long readAtNanos;
        private StoreCounters counters;
        private StoreLatencies latencies;

        Readings(OpenStores.ObservedStore store) {
            this.store = store;
        }

        synchronized StoreCounters counters() {
            refresh();
            return counters;
        }

        synchronized StoreLatencies.Latency latency(StoreOperation operation) {
            refresh();
            return latencies.get(operation);
        }

        private void refresh() {
            long now = System.nanoTime();
            if (counters == null || now - readAtNanos > SNAPSHOT_NANOS) {
                counters = store.counters();
                latencies = store.latencies();
                readAtNanos = now;
            }
        }
    }
}
