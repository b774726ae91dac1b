package io.hbasesessions.benchmarks.store;

import io.hbasesessions.benchmarks.webapp.BenchmarkSession;
import io.hbasesessions.store.SessionRecord;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoredSession;
import io.hbasesessions.store.Webapp;
import io.hbasesessions.store.Container;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/** Sessions for the store benchmarks: the realistic session under a container-like random id, and the store on its table. */
public final class Sessions {

    /** The benchmark's web application: the benchmark WAR's classes are on this classpath. */
    public static final Webapp WEBAPP = new Webapp(BenchmarkSession.class.getClassLoader(), Container.NONE);
    private static final int ID_BYTES = 16;

    private Sessions() {
    }

    /** The store's default settings on {@code table} of the embedded HBase, in a key scope named after it. */
    public static StoreSettings storeSettings(String quorum, String table) {
        return StoreSettings.builder()
                .set(Setting.ZOOKEEPER_QUORUM, quorum)
                .set(Setting.TABLE, table)
                .set(Setting.INDEX_TABLE, table + "_index")
                .set(Setting.KEY_SCOPE, "/" + table)
                .build();
    }

    /** A new realistic session, stored. */
    public static StoredSession create(SessionStore store, long user) {
        byte[] id = new byte[ID_BYTES];
        ThreadLocalRandom.current().nextBytes(id);
        Instant now = Instant.now();
        StoredSession session = store.newSession(SessionRecord.created(HexFormat.of().withUpperCase().formatHex(id), now,
                Duration.ofMinutes(30)), false);
        session.attributes().putAll(BenchmarkSession.attributes(user, now));
        store.save(session, session.record());
        return session;
    }

    /** What a write request does: cart and counters changed, access time now; returns the record to save. */
    public static SessionRecord change(StoredSession session, long request) {
        Instant now = Instant.now();
        BenchmarkSession.change(session.attributes()::get, session.attributes()::put, (int) request, now);
        return accessedAt(session, now);
    }

    /** A request's record at {@code now}: accessed strictly after the stored access, even within one millisecond. */
    static SessionRecord accessedAt(StoredSession session, Instant now) {
        return session.record().withLastAccessTime(latest(now, session.record().lastAccessTime().plusMillis(1)));
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
