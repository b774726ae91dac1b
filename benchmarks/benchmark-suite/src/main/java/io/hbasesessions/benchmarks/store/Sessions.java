package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.webapp.BenchmarkSession;
import io.hbasesessions.store.SessionRecord;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Session records for the store benchmarks: the realistic session under a container-like random id. */
public final class Sessions {

    private static final int ID_BYTES = 16;

    private Sessions() {
    }

    public static SessionRecord newRecord(long user) {
        byte[] id = new byte[ID_BYTES];
        ThreadLocalRandom.current().nextBytes(id);
        Instant now = Instant.now();
        return SessionRecord.builder(HexFormat.of().withUpperCase().formatHex(id), now)
                .attributes(BenchmarkSession.attributes(user, now))
                .build();
    }

    /** The record after a write request: cart and counters changed, access time now. */
    public static SessionRecord changed(SessionRecord record, long request) {
        Instant now = Instant.now();
        Map<String, Object> attributes = new LinkedHashMap<>(record.attributes());
        BenchmarkSession.change(attributes::get, attributes::put, (int) request, now);
        return record.toBuilder().attributes(attributes).lastAccessTime(now).build();
    }
}
