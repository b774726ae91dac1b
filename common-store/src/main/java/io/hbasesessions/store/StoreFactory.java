package io.hbasesessions.store;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Wires a {@link SessionProtocol} from a store's settings and the tables {@link HBaseSessions} opened: every
 * collaborator of the protocol is made here, once, so the protocol itself holds only the protocol.
 */
final class StoreFactory {

    private StoreFactory() {
    }

    /**
     * @param expiryIndex the expiry index when {@code expiryEvents} is on, else empty
     * @param changes the sessions other nodes changed ({@code stickySessions})
     * @param health the health check of this store's tables
     * @param onClose gives back what the tables hold (the shared connection)
     */
    static SessionProtocol protocol(StoreSettings settings, Webapp webapp, Clock clock, LiveCounters counters,
            StateSeal seal, SessionRows tableRows, UserIndex index, Optional<ExpiryIndex> expiryIndex, ChangeFeed changes,
            Supplier<StoreHealth> health, Runnable onClose) {
        StickyCopies copies = new StickyCopies(settings.get(Setting.STICKY_SESSIONS) ? webapp.route() : Optional.empty(),
                changes, settings, counters, System::nanoTime);
        SessionRows rows = new StickyRows(tableRows, copies);
        Duration leaseTimeout = Duration.ofSeconds(settings.get(Setting.LEASE_TIMEOUT_SECONDS));
        Duration keptForSweep = expiryIndex.isEmpty() ? Duration.ZERO
                : Duration.ofSeconds(settings.get(Setting.EXPIRY_EVENT_DELAY_SECONDS)).plus(leaseTimeout);
        ExpiryPolicy expiry = new ExpiryPolicy(settings.get(Setting.TOUCH_INTERVAL_SECONDS),
                settings.get(Setting.MAX_LIFETIME_SECONDS), keptForSweep);
        ExpiryTracking tracking = new ExpiryTracking(expiryIndex, expiry, seal, ExpiryTracking.bucketWidth(settings),
                counters);
        SaveOperation.Collaborators with = new SaveOperation.Collaborators(rows, index,
                new RowWrites(expiry, seal, settings.get(Setting.MAX_SESSION_BYTES), counters,
                        webapp.container().sessionSystem()), counters, expiry, clock,
                settings.get(Setting.LOCKING_MODE), tracking, new RowTurns(),
                new IndexEntries(seal, webapp.container()));
        AttributePolicy values = new AttributePolicy(settings, webapp, counters);
        LiveReads reads = new LiveReads(with, webapp.container(), leaseTimeout);
        Optional<ExpirySweeper> sweeper = expiryIndex.map(expiryRows -> new ExpirySweeper(new ExpirySweeper.Collaborators(
                expiryRows, tracking, rows, index, expiry, clock, counters, settings::operationDeadline),
                settings.get(Setting.KEY_SCOPE), reads::isSessionHere, leaseTimeout,
                (sessionId, key, row) -> values.loaded(sessionId, key, row, null)));
        copies.startReading(settings.get(Setting.KEY_SCOPE));
        return new SessionProtocol(settings, with, values, reads, new UserSessions(with), sweeper, copies, health, onClose);
    }
}
