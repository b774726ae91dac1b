package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Reads of the live session in a row, and the lease a pessimistic load waits for: what a missing, ended,
 * unreadable, forged or other system's row means to a request. Thread-safe; one per store.
 */
final class LiveReads {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    private static final Backoff LEASE_BACKOFF = new Backoff(2, 50);

    private final SaveOperation.Collaborators with;
    private final Container container;
    private final Duration leaseTimeout;

    LiveReads(SaveOperation.Collaborators with, Container container, Duration leaseTimeout) {
        this.with = with;
        this.container = container;
        this.leaseTimeout = leaseTimeout;
    }

    /**
     * For a load that decides nothing: as {@link #readLive}, but possibly answered by a secondary replica
     * ({@code timelineReads}). A stale row may show a live session, never its end: a touch on the primary
     * the secondary has not seen yet may have moved it.
     */
    Optional<SessionRow> loadLive(SessionKey key, Deadline deadline) {
        Optional<SessionRow> row = live(key, () -> with.rows().readForLoad(key, deadline));
        if (row.isPresent() && row.get().stale()) {
            with.counters().increment(StoreCounter.STALE_READS);
        }
        return row;
    }

    /** The live session in the primary's row, or empty when it is missing, ended, unreadable (logged) or forged. */
    Optional<SessionRow> readLive(SessionKey key, Deadline deadline) {
        return live(key, () -> with.rows().read(key, deadline));
    }

    private Optional<SessionRow> live(SessionKey key, Supplier<Optional<SessionRow>> read) {
        Optional<SessionRow> row;
        try {
            row = read.get();
        } catch (ForgedStateException e) {
            return Optional.empty();
        } catch (CorruptSessionDataException e) {
            with.counters().increment(StoreCounter.UNREADABLE_ON_LOAD);
            LOG.log(Level.WARNING, "Session {0} is unreadable and treated as absent: {1}", key.shortHex(), e.getMessage());
            return Optional.empty();
        }
        if (row.isEmpty() || !isSessionHere(row.get().state())) {
            with.counters().increment(StoreCounter.LOAD_MISSES);
            return Optional.empty();
        }
        if (with.expiry().isOverAt(row.get().state(), with.clock().instant())) {
            if (row.get().stale()) {
                with.counters().increment(StoreCounter.ERRORS);
                throw new StoreUnavailableException("The primary replica did not answer within timelineReadAfterMillis "
                        + "and a secondary holds this session ended (the primary may have a later access)",
                        key.shortHex(), null);
            }
            with.counters().increment(StoreCounter.EXPIRED_ON_LOAD);
            return Optional.empty();
        }
        return row;
    }

    /** Whether a stored state is a session of this store's session system (another system's row is none here). */
    boolean isSessionHere(StoredState state) {
        return container.sees(state.sessionSystem());
    }

    /**
     * Waits for the session's lease and returns its token.
     *
     * @throws StoreUnavailableException if another request holds it past the deadline
     */
    String takeLease(SessionKey key, Deadline deadline) {
        String token = UUID.randomUUID().toString();
        for (int attempt = 1; !with.rows().takeLease(key, token, leaseTimeout, deadline); attempt++) {
            if (!LEASE_BACKOFF.pauseBefore(attempt, deadline)) {
                throw new StoreUnavailableException("Another request held this session's lease for longer than "
                        + "operationTimeoutMillis=" + deadline.budgetMillis() + "; a lease is given back when its "
                        + "request saves, or after leaseTimeoutSeconds=" + leaseTimeout.toSeconds() + " if its node died",
                        key.shortHex(), null);
            }
        }
        return token;
    }
}
