package io.hbasesessions.store;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The session store both container adapters translate to. One instance serves one {@link #keyScope()}
 * (by default one web application); instances with the same scope share sessions, whatever container
 * they run in.
 *
 * <p>Ids passed in are the container's raw session ids without a route suffix. They are hashed
 * before they reach HBase and never stored or logged. Any id, even {@code null}, empty or
 * hostile, is accepted: an id that cannot name a stored session simply finds nothing.
 *
 * <p>Every method either completes within the configured operation timeout or throws
 * {@link StoreUnavailableException}; nothing already stored is overwritten by an older or partial state.
 */
public interface SessionStore extends AutoCloseable {

    /**
     * The ServletContext attribute under which the adapters publish {@link #revokeAll} as a
     * {@code java.util.function.ToIntFunction<String>} (principal name to sessions revoked), so a web
     * application can log a user out everywhere without depending on this library.
     */
    String REVOKE_ALL_CONTEXT_ATTRIBUTE = "io.hbasesessions.revokeAll";

    /** The scope that, with a session id, names a row. */
    String keyScope();

    /**
     * Stores a new session (durably).
     *
     * @throws SessionAlreadyExistsException if a live session with this id exists in this scope
     */
    LoadedSession create(SessionRecord session);

    /**
     * Reads a session. Empty when it is missing, idle-expired (whatever HBase still holds), unreadable
     * (corrupt or foreign bytes, logged once) or the id is malformed. Attributes whose class cannot be
     * loaded are dropped with a warning naming them. In pessimistic locking mode this waits for and
     * takes the session's lease, which {@link #save} or {@link #release} gives back.
     */
    Optional<LoadedSession> load(String sessionId);

    /** One cheap existence check of a live session, for id generation. */
    boolean exists(String sessionId);

    /**
     * Writes what this request changed since {@code loaded}: nothing when neither attributes (compared
     * as serialized bytes, so objects changed in place are seen) nor metadata changed and the last
     * access was written less than the touch interval ago; a touch when only the access time moved;
     * otherwise the whole state. When another writer got in first, this request's attribute-level
     * changes are re-applied on top of the newer state and retried.
     *
     * @throws SessionTooLargeException if the serialized session exceeds {@code maxSessionBytes};
     *     the stored state is left as it was
     * @throws UnserializableAttributeException if an attribute cannot be serialized; the stored
     *     state is left as it was
     */
    SaveResult save(LoadedSession loaded, SessionRecord current);

    /** Records an access that changed nothing else; debounced exactly as {@link #save} debounces. */
    default SaveResult touch(LoadedSession loaded, Instant accessTime) {
        return save(loaded, loaded.record().withLastAccessTime(accessTime));
    }

    /** Gives back a pessimistic lease taken by {@link #load} without saving; a no-op in other modes. */
    void release(LoadedSession loaded);

    /** Deletes a session and its principal index entry (invalidation). False when nothing was there. */
    boolean delete(String sessionId);

    /**
     * Moves a session to a new id: the new row is written before the old one is deleted, so a crash
     * in between leaves the session reachable. The returned session carries {@code current}'s state.
     */
    LoadedSession changeId(LoadedSession loaded, SessionRecord current, String newSessionId);

    /** The live sessions of a principal in every scope, newest first. Raw ids are never stored, so none are returned. */
    List<IndexedSession> findByPrincipal(String principal);

    /** Deletes every session of a principal in every scope ("log out everywhere"); returns how many were deleted. */
    int revokeAll(String principal);

    /** A snapshot of what this store has done since it was opened. */
    StoreCounters counters();

    /** Releases this store's share of the HBase connection. */
    @Override
    void close();
}
