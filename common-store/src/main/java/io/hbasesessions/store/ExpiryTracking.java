package io.hbasesessions.store;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * {@code expiryEvents} on the write path: the one rule for when a write enters its session in the expiry
 * index. A session's end is rounded up to the end of its time bucket; a write enters the session only when
 * that bucket differs from the one of the state it replaces, so touches within a bucket add nothing, and a
 * request that writes nothing never writes an entry.
 */
final class ExpiryTracking {

    private final Optional<ExpiryIndex> index;
    private final ExpiryPolicy expiry;
    private final StateSeal seal;
    private final Duration bucketWidth;
    private final LiveCounters counters;

    /** @param index empty when {@code expiryEvents} is off: nothing is then ever written */
    ExpiryTracking(Optional<ExpiryIndex> index, ExpiryPolicy expiry, StateSeal seal, Duration bucketWidth,
            LiveCounters counters) {
        this.index = index;
        this.expiry = expiry;
        this.seal = seal;
        this.bucketWidth = bucketWidth;
        this.counters = counters;
    }

    /**
     * Half the event delay: a bucket's sessions end within it, and a sweep follows its end within the other
     * half ({@link StoreSettings#expirySweepPeriodSeconds}).
     */
    static Duration bucketWidth(StoreSettings settings) {
        return Duration.ofMillis(settings.get(Setting.EXPIRY_EVENT_DELAY_SECONDS) * 500);
    }

    /**
     * Enters {@code next} in its bucket, before it is written, unless {@code replaced} (the state the write
     * goes over; null for a new row) is in the same bucket. Written first: a write that fails after it leaves an
     * entry the sweeper skips, never a session that no bucket names.
     */
    void beforeWrite(SessionKey key, String sessionId, StoredState replaced, StoredState next,
            WriteDurability durability, Deadline deadline) {
        if (index.isEmpty()) {
            return;
        }
        Instant due = dueOf(next);
        if (replaced != null && due.equals(dueOf(replaced))) {
            return;
        }
        byte[] sealedId = seal.sealId(key, sessionId);
        index.get().add(due, new ExpiryIndex.Entry(key, sealedId), durability, deadline);
        counters.increment(StoreCounter.EXPIRY_ENTRIES);
    }

    /** The end of the bucket {@code state}'s end falls in. */
    Instant dueOf(StoredState state) {
        long width = bucketWidth.toMillis();
        long end = expiry.endOf(state).toEpochMilli();
        return Instant.ofEpochMilli(Math.floorDiv(end + width - 1, width) * width);
    }

    /**
     * The id an entry names, if it is the id of the entry's session in {@code keyScope}: an entry that
     * fails its seal, or whose id does not hash to its row, was not written by a store of this scope.
     */
    Optional<String> idOf(ExpiryIndex.Entry entry, String keyScope) {
        return seal.idOf(entry.session(), entry.sealedId(), keyScope);
    }
}
