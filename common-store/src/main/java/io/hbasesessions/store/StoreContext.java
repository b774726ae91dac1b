package io.hbasesessions.store;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;
import org.apache.hadoop.hbase.client.Durability;

/** What every store operation works with: settings, clock, tables, serializer, counters; and the steps they share. */
final class StoreContext {

    private static final System.Logger LOG = System.getLogger(StoreContext.class.getName());

    final StoreSettings settings;
    final Clock clock;
    final LiveCounters counters;
    final SessionTable sessions;
    final PrincipalIndex index;
    final SessionLeases leases;
    final ExpiryPolicy expiry;
    final RecordSerializer serializer;

    StoreContext(StoreSettings settings, Clock clock, LiveCounters counters, SessionTable sessions, PrincipalIndex index) {
        this.settings = settings;
        this.clock = clock;
        this.counters = counters;
        this.sessions = sessions;
        this.index = index;
        this.leases = new SessionLeases(sessions);
        this.expiry = new ExpiryPolicy(settings.touchIntervalSeconds());
        this.serializer = new RecordSerializer(SessionCodec.of(settings.serializer()));
    }

    Deadline newDeadline() {
        return Deadline.afterMillis(settings.operationTimeoutMillis());
    }

    Instant now() {
        return clock.instant();
    }

    /** @throws UnserializableAttributeException naming the attribute that cannot be serialized */
    StoredState serialize(SessionRecord record, SessionKey key) {
        return serializer.serialize(record, key.shortHex());
    }

    /**
     * A write of {@code state} as version {@code version}: its cell TTL chosen (and recorded in the state),
     * serialized, and checked against {@code maxSessionBytes} before anything is written.
     *
     * @throws SessionTooLargeException if over the limit
     */
    StateWrite write(StoredState state, long version, Durability durability, SessionKey key) {
        long cellTtlMillis = expiry.nextCellTtlMillis(state);
        StoredState stamped = state.withCellTtlMillis(cellTtlMillis);
        byte[] cell = stamped.toBytes();
        if (cell.length > settings.maxSessionBytes()) {
            throw new SessionTooLargeException(key.shortHex(), cell.length, settings.maxSessionBytes());
        }
        return new StateWrite(stamped, cell, version,
                cellTtlMillis == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(cellTtlMillis), durability);
    }

    /** For a load: the live session in a row, or empty when it is missing, idle-expired or unreadable (logged once). */
    Optional<SessionRow> readLive(SessionKey key, Deadline deadline) {
        Optional<SessionRow> row;
        try {
            row = sessions.read(key, deadline);
        } catch (CorruptSessionDataException e) {
            return unreadable(key, e);
        }
        if (row.isEmpty()) {
            counters.loadMisses.increment();
        } else if (!row.get().isLiveAt(now())) {
            counters.expiredOnLoad.increment();
            return Optional.empty();
        }
        return row;
    }

    /**
     * Decodes a stored state for the application, with the class loader of the calling (webapp) thread;
     * attributes whose class that loader cannot see are left out (logged) and kept in the stored bytes.
     */
    LoadedSession decode(String sessionId, SessionKey key, SessionRow row, String leaseToken) {
        DecodedSession decoded = serializer.deserialize(sessionId, key.shortHex(), row.state(), classLoader());
        return new LoadedSession(decoded.record(), row.version(), row.state(), leaseToken);
    }

    private Optional<SessionRow> unreadable(SessionKey key, CorruptSessionDataException e) {
        counters.unreadableOnLoad.increment();
        LOG.log(System.Logger.Level.WARNING, "Session {0} is unreadable and treated as absent: {1}",
                key.shortHex(), e.getMessage());
        return Optional.empty();
    }

    private static ClassLoader classLoader() {
        ClassLoader webapp = Thread.currentThread().getContextClassLoader();
        return webapp != null ? webapp : StoreContext.class.getClassLoader();
    }
}
