package io.hbasesessions.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits for one asynchronous HBase call, never past the operation's deadline, and turns every way it
 * can fail into the one documented {@link StoreUnavailableException}. The HBase client's own timeouts
 * are set to the same bound, but its ZooKeeper and location lookups can outlast them; this wait cannot.
 */
final class HBaseCalls {

    private final LiveCounters counters;

    HBaseCalls(LiveCounters counters) {
        this.counters = counters;
    }

    /** @param key the session involved, or {@code null}; @param what the call, as in "HBase failed {what}" */
    <T> T await(CompletableFuture<T> call, Deadline deadline, SessionKey key, String what) {
        try {
            return call.get(deadline.remainingMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            // Not cancelled: cancelling stops no HBase work, and a connection still being set up would leak.
            throw failure("HBase did not finish " + what + " within " + deadline.budgetMillis() + " ms", key, e);
        } catch (ExecutionException e) {
            throw failure("HBase failed " + what + ": " + e.getCause(), key, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failure("Interrupted while " + what, key, e);
        }
    }

    /** An answer HBase gave that is no answer to the question (counted as an error, like a call that failed). */
    StoreUnavailableException unavailable(String message, SessionKey key) {
        return failure(message, key, null);
    }

    private StoreUnavailableException failure(String message, SessionKey key, Throwable cause) {
        counters.increment(StoreCounter.ERRORS);
        return new StoreUnavailableException(message, key == null ? null : key.shortHex(), cause);
    }
}
