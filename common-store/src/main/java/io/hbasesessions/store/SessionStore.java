package io.hbasesessions.store;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The session store every container adapter translates to. One instance serves one web application
 * ({@link #keyScope()}); instances with the same scope share sessions, whatever container they run in.
 *
 * <p>Ids are the container's raw session ids without a route suffix (see {@link SessionIds}). They
 * are hashed before they reach HBase and never stored or logged. Any id, even {@code null} or hostile,
 * is accepted where a session is looked up: an id that cannot name a session finds nothing.
 *
 * <p>Every method completes within {@code operationTimeoutMillis} or throws
 * {@link StoreUnavailableException}. Nothing stored is ever overwritten by an older or partial state,
 * and a session that was invalidated or revoked never comes back, by any path.
 */
public interface SessionStore extends AutoCloseable {

    /** The scope that, with a session id, names a row. */
    String keyScope();

    /**
     * A new session, not stored until its first {@link #save}. A transient one (created while the
     * store was unreachable, with {@code failMode=new_session}) is never stored.
     */
    StoredSession newSession(SessionRecord record, boolean transientSession);

    /**
     * Reads a session. Empty when it is missing, past its idle timeout or maximum lifetime, unreadable
     * (corrupt or foreign bytes, logged once) or the id cannot name one. Attributes are decoded when
     * first read. In pessimistic locking mode this waits for and takes the session's lease, which the
     * next {@link #save} or {@link #release} gives back.
     */
    Optional<StoredSession> load(String sessionId);

    /**
     * As {@link #load(String)}, for a request whose session id carried {@code route} (its suffix: Tomcat's
     * {@code jvmRoute}, Jetty's worker name; null for none). With {@code stickySessions}, a request routed to this
     * node is answered from the node's copy when it is current; a session read from HBase for a request routed
     * elsewhere (its node failed, or the balancer moved the user) becomes at home on this node with its next save,
     * and the container should give the client the id with this node's route.
     */
    Optional<StoredSession> load(String sessionId, String route);

    /** The ids among {@code sessionIds} that name live sessions: one batch of reads. */
    Set<String> liveAmong(Collection<String> sessionIds);

    /**
     * Writes what happened to {@code session} since it was read or last saved, with {@code current}
     * as its metadata, and brings {@code session} up to date. Stores a new session (under
     * {@code current}'s id, which may differ from the one it was made with); writes nothing when
     * nothing changed and the last access was written less than the touch interval ago; a touch when
     * only the access moved; otherwise this request's changes, re-applied on top of another writer's
     * newer state if one got in first. A session deleted meanwhile is not brought back: {@code GONE}.
     *
     * @throws SessionTooLargeException if the session would exceed {@code maxSessionBytes}
     * @throws UnserializableAttributeException if a changed attribute cannot be serialized
     * @throws SessionConflictException in pessimistic mode, when another request changed an attribute
     *     this one changed while this one no longer held the lease
     * @throws IllegalArgumentException if {@code session} is stored under another id than {@code current}'s
     */
    SaveResult save(StoredSession session, SessionRecord current);

    /**
     * Makes the stored session exactly {@code current} with {@code attributes}, for callers that did not
     * read it through this store (Tomcat's {@code PersistentManager}, a Jetty store stacked on this one).
     * A session that was stored before ({@code storedBefore}) and is gone now is not brought back.
     */
    SaveResult saveWhole(SessionRecord current, Map<String, ?> attributes, boolean storedBefore);

    /** Gives back a pessimistic lease taken by {@link #load} without saving; a no-op otherwise. */
    void release(StoredSession session);

    /** Deletes a session and its user index entry (invalidation). False when there was none. */
    boolean delete(String sessionId);

    /**
     * Deletes the session a request holds (invalidation): in one write when nobody wrote it since this copy was
     * read or saved, as {@link #delete(String)} otherwise; gives back its lease. False when there was none.
     */
    boolean delete(StoredSession session);

    /**
     * Moves a session to a new id, with {@code current} as its metadata: the new row is written before the
     * old one is deleted, so a crash in between leaves the session reachable, and a session deleted
     * meanwhile is not brought back under the new id ({@code GONE}).
     */
    SaveResult changeId(StoredSession session, SessionRecord current, String newSessionId);

    /** The live sessions of a user in every scope, newest first. Raw ids are never stored, so none are returned. */
    List<IndexedSession> findByUser(String user);

    /**
     * The ids of the live sessions of a user in this store's key scope, newest first, for callers that must name
     * them by id (Spring Session's {@code findByPrincipalName}). Only stores of a session system that keeps ids
     * in the user index ({@link Container#SPRING_SESSION}, sealed as the expiry index's are) find any: the
     * containers' session ids are never stored, so their stores return an empty list.
     */
    List<String> findIdsByUser(String user);

    /** Deletes every session of a user in every scope ("log out everywhere"); returns how many were deleted. */
    int revokeAll(String user);

    /**
     * With {@code expiryEvents}: ends the sessions of due expiry buckets that no other node sweeps, and returns
     * them, already deleted, for their container to fire {@code sessionDestroyed} and {@code valueUnbound}
     * (their attributes decode with the web application's loader). Each session is returned by one sweep
     * across the fleet. Without {@code expiryEvents}: empty, and HBase is not asked.
     *
     * @throws StoreUnavailableException if HBase fails before this sweep ended a session
     */
    List<StoredSession> sweepExpired();

    /**
     * Whether HBase answers within {@code operationTimeoutMillis} and every table has the schema this store
     * needs; never throws. The check of {@code hbase-sessions health} and of the MBean's {@code checkHealth}.
     */
    StoreHealth checkHealth();

    /** A snapshot of what this store has done since it was opened. */
    StoreCounters counters();

    /** How long this store's calls that completed took since it was opened, per operation. */
    StoreLatencies latencies();

    /** Releases this store's share of the HBase connection. */
    @Override
    void close();
}
