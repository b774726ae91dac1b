package io.hbasesessions.store;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * Turns a state into one write of its row: the cell TTL chosen (and recorded in the state, so that
 * no later write of the row ever shortens it), the writer's session system stamped, the cell serialized,
 * and its size checked against {@code maxSessionBytes} before anything is written, protected as
 * {@code stateProtection} says.
 */
final class RowWrites {

    private final ExpiryPolicy expiry;
    private final StateSeal seal;
    private final long maxSessionBytes;
    private final LiveCounters counters;
    private final Optional<String> sessionSystem;

    /** @param sessionSystem the system of the rows this store writes; empty: the one a state already names */
    RowWrites(ExpiryPolicy expiry, StateSeal seal, long maxSessionBytes, LiveCounters counters,
            Optional<String> sessionSystem) {
        this.expiry = expiry;
        this.seal = seal;
        this.maxSessionBytes = maxSessionBytes;
        this.counters = counters;
        this.sessionSystem = sessionSystem;
    }

    /** @throws SessionTooLargeException if the cell would exceed {@code maxSessionBytes} */
    RowWrite of(StoredState.Builder next, long version, WriteDurability durability, SessionKey key) {
        sessionSystem.ifPresent(system -> next.sessionSystem(Optional.of(system)));
        StoredState unstamped = next.build();
        long cellTtlMillis = expiry.nextCellTtlMillis(unstamped);
        StoredState state = unstamped.toBuilder().cellTtlMillis(cellTtlMillis).build();
        // Sealed here, where the version this write stores is known: the seal covers exactly the row and version written.
        byte[] cell = seal.seal(key, version, state.toBytes());
        if (cell.length > maxSessionBytes) {
            throw new SessionTooLargeException(key.shortHex(), cell.length, maxSessionBytes);
        }
        return new RowWrite(state, cell, version,
                cellTtlMillis == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(cellTtlMillis), durability);
    }

    /** Counts a write that reached HBase. */
    void count(StoreCounter kind, RowWrite write) {
        counters.increment(kind);
        counters.add(StoreCounter.BYTES_WRITTEN, write.stateCell().length);
    }
}
