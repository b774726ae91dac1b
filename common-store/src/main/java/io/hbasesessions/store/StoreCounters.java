package io.hbasesessions.store;

/** A snapshot of a store's activity since it was opened, for JMX and benchmarks. */
public record StoreCounters(
        long loads,
        long loadMisses,
        long expiredOnLoad,
        long unreadableOnLoad,
        long creates,
        long fullWrites,
        long touches,
        long touchesSkipped,
        long unchangedSaves,
        long conflicts,
        long conflictRetries,
        long deletes,
        long idChanges,
        long revocations,
        long bytesWritten,
        long errors) {

    /** Every write that reached HBase for a session row. */
    public long sessionWrites() {
        return creates + fullWrites + touches + idChanges;
    }
}
