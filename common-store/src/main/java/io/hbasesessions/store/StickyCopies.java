package io.hbasesessions.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.lang.System.Logger.Level;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * {@code stickySessions}: this node's copies of the sessions whose home it is, and the rules that keep them current.
 * <ul>
 * <li>A node keeps a copy of a session only while the stored session names it as home; a request routed elsewhere
 *     moves the home by its save ({@link StoredSession#claimHome}).
 * <li>A node that writes a session it holds no current home copy of announces the write on the {@link ChangeFeed}
 *     first: a write over another node's home (a request that reached the wrong node, a claim, a revocation, an
 *     invalidation, a node without this mode). The home's own writes, the only ones sticky routing makes common, need
 *     no announcement: nobody else holds a copy.
 * <li>Every node reads the feed every quarter of {@code stickyStalenessMillis} and drops the copies it names as
 *     older than their change; a copy answers a request only while the last read of the feed that succeeded began
 *     less than {@code stickyStalenessMillis} ago. So a write that completed that long before a request began is
 *     seen by it, on every node.
 * </ul>
 * Without {@code stickySessions} a store keeps no copies and reads no feed, but still announces its writes over a
 * session that has a home, so that nodes with the mode stay current while a fleet turns it on or off.
 * Thread-safe; one per store.
 */
final class StickyCopies implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    /** Memory of a copy besides its attribute bytes: the row, state, maps and the cache's entry. */
    private static final int COPY_OVERHEAD_BYTES = 320;
    private static final int ATTRIBUTE_OVERHEAD_BYTES = 96;

    private final Optional<String> self;
    /** This store's name in the changes it announces: its route and an instance, so that two nodes given one route are told apart. */
    private final String publisher;
    private final ChangeFeed feed;
    private final LiveCounters counters;
    private final StoreSettings settings;
    private final LongSupplier nanoTime;
    private final long stalenessNanos;
    private final long retentionNanos;
    private final Optional<Cache<SessionKey, SessionRow>> copies;
    /** Reads the feed from {@link #startReading} until {@link #close}. */
    private volatile ScheduledExecutorService reader;
    /** When the last read of the feed that succeeded began; guarded by the reader thread, read by any. */
    private volatile long lastReadStarted;
    private volatile boolean everRead;
    private volatile boolean failureLogged;
    private volatile boolean routeSharedLogged;

    /**
     * @param self this node's route when {@code stickySessions} is on; empty: announce only
     * @param nanoTime the clock of the staleness bound (tests move it)
     */
    StickyCopies(Optional<String> self, ChangeFeed feed, StoreSettings settings, LiveCounters counters,
            LongSupplier nanoTime) {
        this.self = self;
        this.publisher = self.orElse("") + "@" + Long.toHexString(ThreadLocalRandom.current().nextLong());
        this.feed = feed;
        this.settings = settings;
        this.counters = counters;
        this.nanoTime = nanoTime;
        this.stalenessNanos = TimeUnit.MILLISECONDS.toNanos(settings.get(Setting.STICKY_STALENESS_MILLIS));
        this.retentionNanos = TimeUnit.MILLISECONDS.toNanos(ChangeFeed.retentionMillis(settings));
        this.copies = self.map(route -> Caffeine.newBuilder()
                .maximumWeight(settings.get(Setting.STICKY_COPIES_MAX_BYTES))
                .weigher((SessionKey key, SessionRow row) -> weight(row.state()))
                .executor(Runnable::run)
                .build());
    }

    /**
     * Starts a thread of its own that reads the feed every quarter of {@code stickyStalenessMillis}, until
     * {@link #close}; without {@code stickySessions}, nothing.
     */
    void startReading(String keyScope) {
        if (self.isEmpty()) {
            return;
        }
        reader = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread reading = new Thread(task, "hbase-sessions-changes " + keyScope);
            reading.setDaemon(true);
            // Not the web application's loader, which a thread of this library must never keep alive.
            reading.setContextClassLoader(StickyCopies.class.getClassLoader());
            return reading;
        });
        long period = Math.max(1, TimeUnit.NANOSECONDS.toMillis(stalenessNanos) / 4);
        // At a fixed rate: a slow read is followed at once by the next, so reads begin as often as HBase allows.
        reader.scheduleAtFixedRate(this::readFeed, 0, period, TimeUnit.MILLISECONDS);
    }

    /** Whether this store keeps copies ({@code stickySessions}). */
    boolean keepsCopies() {
        return self.isPresent();
    }

    /** Whether {@code route} (of a request's session id; null: none) names this node. */
    boolean isRoutedHere(String route) {
        return self.isPresent() && self.get().equals(route);
    }

    /**
     * This node's copy of a session, for a request routed here: present when it holds one and read the feed lately
     * enough to know it is current.
     */
    Optional<SessionRow> current(SessionKey key) {
        if (copies.isEmpty()) {
            return Optional.empty();
        }
        SessionRow copy = copies.get().getIfPresent(key);
        if (copy != null && everRead && nanoTime.getAsLong() - lastReadStarted <= stalenessNanos) {
            counters.increment(StoreCounter.STICKY_HITS);
            return Optional.of(copy);
        }
        counters.increment(StoreCounter.STICKY_MISSES);
        return Optional.empty();
    }

    /** Whether a session read from HBase with this state should move its home to this node. */
    boolean claims(StoredState state) {
        return self.isPresent() && !self.equals(state.home());
    }

    /** The route new sessions of this node are at home on. */
    Optional<String> homeOfNewSessions() {
        return self;
    }

    /** After a read from the primary or a write: keeps the row if this node is its home. */
    void remember(SessionKey key, SessionRow row) {
        if (copies.isPresent() && !row.stale() && self.equals(row.state().home())) {
            copies.get().put(key, row);
        }
    }

    void forget(SessionKey key) {
        copies.ifPresent(held -> held.invalidate(key));
    }

    /**
     * Before a write over {@code expectedVersion} of a session with a home: announced unless this node is the home
     * and holds the copy it writes over, the one case in which no other node can hold a copy.
     */
    void beforeReplace(SessionKey key, long expectedVersion, RowWrite write, Deadline deadline) {
        Optional<String> home = write.state().home();
        if (home.isEmpty()) {
            return;
        }
        boolean homeWritesItsCopy = self.equals(home) && copies.map(held -> held.getIfPresent(key))
                .filter(copy -> copy.version() == expectedVersion).isPresent();
        if (!homeWritesItsCopy) {
            announce(key, write.version(), deadline);
        }
    }

    /** Before a session's end: announced if another node is its home. */
    void beforeEnd(SessionKey key, StoredState ended, Deadline deadline) {
        if (ended.home().isPresent() && !ended.home().equals(self)) {
            announce(key, Long.MAX_VALUE, deadline);
        }
        forget(key);
    }

    /** Before the end of a row that cannot be read: whatever copy there is goes everywhere. */
    void beforeEndOfUnreadable(SessionKey key, Deadline deadline) {
        if (self.isPresent()) {
            announce(key, Long.MAX_VALUE, deadline);
        }
        forget(key);
    }

    private void announce(SessionKey key, long version, Deadline deadline) {
        feed.publish(new ChangeFeed.Change(key, version, publisher), deadline);
        counters.increment(StoreCounter.CHANGES_ANNOUNCED);
        // A copy of this node's own is superseded too: the write may go over a version this node never saw.
        forget(key);
    }

    /** One read of the feed: drops the copies it names as no longer current. */
    void readFeed() {
        long started = nanoTime.getAsLong();
        try {
            Map<SessionKey, Long> changedFrom = new HashMap<>();
            for (ChangeFeed.Change change : feed.read(Deadline.afterMillis(Math.min(
                    settings.get(Setting.OPERATION_TIMEOUT_MILLIS), TimeUnit.NANOSECONDS.toMillis(stalenessNanos))))) {
                if (!publisher.equals(change.publisher())) {
                    warnIfRouteIsShared(change.publisher());
                    changedFrom.merge(change.key(), change.version(), Math::max);
                }
            }
            Cache<SessionKey, SessionRow> held = copies.get();
            if (everRead && started - lastReadStarted > retentionNanos / 2) {
                // Changes may have left the feed unread: no copy can be shown current.
                held.invalidateAll();
            }
            changedFrom.forEach((key, version) -> held.asMap().computeIfPresent(key, (same, copy) -> {
                if (copy.version() < version) {
                    counters.increment(StoreCounter.STICKY_INVALIDATIONS);
                    return null;
                }
                return copy;
            }));
            lastReadStarted = started;
            everRead = true;
            failureLogged = false;
        } catch (RuntimeException e) {
            if (!failureLogged) {
                failureLogged = true;
                LOG.log(Level.WARNING, "Could not read the sessions changed by other nodes from " + settings.get(
                        Setting.CHANGES_TABLE) + "; requests read their sessions from HBase until it can: " + e.getMessage());
            }
        }
    }

    /**
     * Two nodes with one route would both take themselves for the home of the sessions with that route, and neither
     * would announce its writes to the other: said once, as loudly as the setting that caused it.
     */
    private void warnIfRouteIsShared(String otherPublisher) {
        if (!routeSharedLogged && otherPublisher.startsWith(self.get() + "@")) {
            routeSharedLogged = true;
            LOG.log(Level.ERROR, "Another node announces session changes under this node''s route ''{0}'': with "
                    + "stickySessions every node needs a route of its own (Tomcat jvmRoute, Jetty workerName), or their "
                    + "copies serve stale sessions", self.get());
        }
    }

    private static int weight(StoredState state) {
        long bytes = COPY_OVERHEAD_BYTES;
        for (Map.Entry<String, byte[]> attribute : state.attributeBytes().entrySet()) {
            bytes += ATTRIBUTE_OVERHEAD_BYTES + 2L * attribute.getKey().length() + attribute.getValue().length;
        }
        return (int) Math.min(Integer.MAX_VALUE, bytes);
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.shutdownNow();
        }
        copies.ifPresent(Cache::invalidateAll);
    }
}
