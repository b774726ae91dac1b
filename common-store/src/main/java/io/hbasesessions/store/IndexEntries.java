package io.hbasesessions.store;

import java.time.Instant;
import java.util.Optional;

/**
 * The user index entries a store writes, and the ids it reads back from them. Stores of a session system whose
 * callers must name a user's sessions by id (Spring Session's {@code findByPrincipalName}: Spring Security then
 * looks each one up, and expires it, by its id) keep the id in the entry, sealed to the session's row as the
 * expiry index keeps it (encrypted whenever there is a {@code stateKeyFile}); the others keep nothing there, so
 * the ids of container sessions are still never stored.
 */
final class IndexEntries {

    private final StateSeal seal;
    private final Container container;

    IndexEntries(StateSeal seal, Container container) {
        this.seal = seal;
        this.container = container;
    }

    /** The entry of the session {@code sessionId} (row {@code key}) of {@code user}. */
    UserIndex.Entry of(String user, Instant creationTime, SessionKey key, String sessionId) {
        return container.keepsIdsInUserIndex() ? new UserIndex.Entry(user, creationTime, key, seal.sealId(key, sessionId))
                : new UserIndex.Entry(user, creationTime, key);
    }

    /**
     * The id {@code entry} keeps, if this store deals in ids, the entry keeps one that names its session in
     * {@code keyScope}, and the session ({@code state}) is one of this store's session system.
     */
    Optional<String> idOf(UserIndex.Entry entry, StoredState state, String keyScope) {
        if (!container.keepsIdsInUserIndex() || entry.sealedId().length == 0 || !container.sees(state.sessionSystem())) {
            return Optional.empty();
        }
        return seal.idOf(entry.session(), entry.sealedId(), keyScope);
    }
}
