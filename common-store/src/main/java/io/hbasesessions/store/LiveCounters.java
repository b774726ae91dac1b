package io.hbasesessions.store;

import java.util.concurrent.atomic.LongAdder;

/** The store's activity counters; LongAdders because every request thread updates them. */
final class LiveCounters {

    final LongAdder loads = new LongAdder();
    final LongAdder loadMisses = new LongAdder();
    final LongAdder expiredOnLoad = new LongAdder();
    final LongAdder unreadableOnLoad = new LongAdder();
    final LongAdder creates = new LongAdder();
    final LongAdder fullWrites = new LongAdder();
    final LongAdder touches = new LongAdder();
    final LongAdder touchesSkipped = new LongAdder();
    final LongAdder unchangedSaves = new LongAdder();
    final LongAdder conflicts = new LongAdder();
    final LongAdder conflictRetries = new LongAdder();
    final LongAdder deletes = new LongAdder();
    final LongAdder idChanges = new LongAdder();
    final LongAdder revocations = new LongAdder();
    final LongAdder bytesWritten = new LongAdder();
    /** Operations that failed because HBase could not be reached or did not answer in time. */
    final LongAdder errors = new LongAdder();

    StoreCounters snapshot() {
        return new StoreCounters(loads.sum(), loadMisses.sum(), expiredOnLoad.sum(), unreadableOnLoad.sum(),
                creates.sum(), fullWrites.sum(), touches.sum(), touchesSkipped.sum(), unchangedSaves.sum(),
                conflicts.sum(), conflictRetries.sum(), deletes.sum(), idChanges.sum(), revocations.sum(),
                bytesWritten.sum(), errors.sum());
    }
}
