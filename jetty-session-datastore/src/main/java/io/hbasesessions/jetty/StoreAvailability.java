package io.hbasesessions.jetty;

import io.hbasesessions.store.StoreUnavailableException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the last call to the store reached HBase. Logs each change once, instead of a stack trace
 * per request during an outage, and lets new sessions be refused or kept local while HBase is down.
 */
final class StoreAvailability {

    private static final Logger LOG = LoggerFactory.getLogger(StoreAvailability.class);

    private final AtomicBoolean available = new AtomicBoolean(true);
    private final String scopeDescription;

    StoreAvailability(String scopeDescription) {
        this.scopeDescription = scopeDescription;
    }

    boolean isAvailable() {
        return available.get();
    }

    /** Runs one store call and records whether HBase answered it. */
    <T> T call(Supplier<T> storeCall) {
        try {
            T result = storeCall.get();
            if (available.compareAndSet(false, true)) {
                LOG.info("HBase session store for {} is reachable again", scopeDescription);
            }
            return result;
        } catch (StoreUnavailableException e) {
            if (available.compareAndSet(true, false)) {
                LOG.warn("HBase session store for {} is unavailable: {}", scopeDescription, e.getMessage());
            }
            throw e;
        }
    }
}
