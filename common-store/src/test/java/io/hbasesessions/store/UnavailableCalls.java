package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.function.Executable;

/** The check every adapter's HBase-down test makes of its calls: each fails fast, with the store's one exception. */
public final class UnavailableCalls {

    /** A behaviour bound, not a benchmark: generous for a loaded 2-core machine. */
    public static final long MARGIN_MILLIS = 3_000;

    private UnavailableCalls() {
    }

    /**
     * Runs each call, by name, while HBase is down: each throws {@link StoreUnavailableException}, whose message names
     * HBase as the cause, within {@code timeoutMillis} (the store's {@code operationTimeoutMillis}) and the margin.
     */
    public static void assertEachFailsWithin(long timeoutMillis, Map<String, Executable> calls) {
        calls.forEach((name, call) -> {
            long startNanos = System.nanoTime();
            StoreUnavailableException e = assertThrows(StoreUnavailableException.class, call, name);
            long millis = Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
            assertTrue(e.getMessage().startsWith("HBase"), name + ": " + e.getMessage());
            assertTrue(millis <= timeoutMillis + MARGIN_MILLIS, name + " took " + millis + " ms");
        });
    }
}
