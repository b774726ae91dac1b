package io.hbasesessions.spring.boot;

import io.hbasesessions.store.OpenStores;
import io.hbasesessions.store.StoreHealth;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The health of the session stores open in this JVM (the embedded server's, one per web application),
 * each checked by the store itself: HBase answers within {@code operationTimeoutMillis} and the tables
 * are as the store needs them. Each Boot line's health indicator reports it in its own types. One check
 * serves every health request of the next {@link #CHECK_SERVES} (probes of load balancers and monitors
 * come every few seconds each), so a health endpoint costs HBase a few calls a minute, not one per probe.
 */
public final class SessionStoresHealth implements AutoCloseable {

    /** How long one check of the stores answers health requests. */
    static final Duration CHECK_SERVES = Duration.ofSeconds(5);

    /** One check of every open store: healthy only if there is one and each is. */
    public record Report(boolean healthy, Map<String, Object> details) {
    }

    private final Clock clock;
    private Report lastReport;
    private Instant lastCheck;

    private final Set<OpenStores.ObservedStore> open = ConcurrentHashMap.newKeySet();
    private final OpenStores.Watching watching = OpenStores.watch(new OpenStores.Watcher() {
        @Override
        public void opened(OpenStores.ObservedStore store) {
            open.add(store);
        }

        @Override
        public void closed(OpenStores.ObservedStore store) {
            open.remove(store);
        }
    });

    public SessionStoresHealth() {
        this(Clock.systemUTC());
    }

    /** @param clock when a check is too old to answer with */
    SessionStoresHealth(Clock clock) {
        this.clock = clock;
    }

    /** Whether any store is open: the embedded server's sessions are in HBase. */
    public boolean anyOpen() {
        return !open.isEmpty();
    }

    /**
     * The last check of the open stores, unless it is older than {@link #CHECK_SERVES}: then asks HBase, once per
     * open store. For a health endpoint, not for a request of a user.
     */
    public synchronized Report check() {
        Instant now = clock.instant();
        if (lastReport == null || !now.isBefore(lastCheck.plus(CHECK_SERVES))) {
            lastReport = checkNow();
            lastCheck = now;
        }
        return lastReport;
    }

    private Report checkNow() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean healthy = !open.isEmpty();
        if (open.isEmpty()) {
            details.put("error", "No HBase session store is open: the embedded server has not started its sessions");
        }
        for (OpenStores.ObservedStore store : open) {
            StoreHealth health = store.checkHealth();
            healthy &= health.healthy();
            Map<String, Object> storeDetails = new LinkedHashMap<>();
            storeDetails.put("healthy", health.healthy());
            storeDetails.put("elapsedMillis", health.elapsedMillis());
            if (!health.problems().isEmpty()) {
                storeDetails.put("problems", health.problems());
            }
            details.put(store.keyScope(), storeDetails);
        }
        return new Report(healthy, details);
    }

    @Override
    public void close() {
        watching.close();
    }
}
