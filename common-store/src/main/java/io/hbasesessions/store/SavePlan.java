package io.hbasesessions.store;

import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * What one save of a session writes, decided from what its request changed: plain rules, no I/O.
 * Nothing when nothing changed; a touch (the access time alone, debounced by the touch interval)
 * when only the access moved; otherwise this request's changes on top of the state they were made
 * against, or, after a conflict, on top of the newer state another writer stored.
 */
final class SavePlan {

    enum Kind {
        /** Nothing changed and the access time did not move. */
        NOTHING,
        /** Only the access time moved, and the last one written is recent enough. */
        TOUCH_NOT_DUE,
        /** Only the access time moved, enough to be written. */
        TOUCH,
        /** Attributes or metadata changed. */
        WRITE
    }

    private final Kind kind;
    private final StoredState base;
    private final SessionRecord current;
    private final AttributeChanges changes;
    private final Optional<String> user;
    private final Optional<String> claimedHome;
    private final WriteDurability durability;

    private SavePlan(Kind kind, StoredState base, SessionRecord current, AttributeChanges changes,
            Optional<String> user, Optional<String> claimedHome, WriteDurability durability) {
        this.kind = kind;
        this.base = base;
        this.current = current;
        this.changes = changes;
        this.user = user;
        this.claimedHome = claimedHome;
        this.durability = durability;
    }

    /**
     * @param base the state the request's session was read as (or last written as)
     * @param current the session's metadata at the end of the request
     * @param user the user to index now
     * @param claimedHome the route of the node that takes the session's home ({@code stickySessions}), if it moves
     */
    static SavePlan decide(StoredState base, SessionRecord current, AttributeChanges changes, Optional<String> user,
            Optional<String> claimedHome, ExpiryPolicy expiry, Durabilities durabilities) {
        boolean loginChanged = !current.login().equals(base.login()) || !user.equals(base.indexedUser());
        boolean homeMoves = claimedHome.isPresent() && !claimedHome.equals(base.home());
        boolean metadataChanged = loginChanged || homeMoves
                || !current.maxInactiveInterval().equals(base.maxInactiveInterval());
        if (!changes.isEmpty() || metadataChanged) {
            return new SavePlan(Kind.WRITE, base, current, changes, user, claimedHome,
                    loginChanged ? durabilities.lifecycle() : durabilities.write());
        }
        if (!current.lastAccessTime().isAfter(base.lastAccessTime())) {
            return new SavePlan(Kind.NOTHING, base, current, changes, user, claimedHome, durabilities.touch());
        }
        boolean due = expiry.touchIsDue(base.lastAccessTime(), current.lastAccessTime(), current.maxInactiveInterval());
        return new SavePlan(due ? Kind.TOUCH : Kind.TOUCH_NOT_DUE, base, current, changes, user, claimedHome,
                durabilities.touch());
    }

    Kind kind() {
        return kind;
    }

    boolean writes() {
        return kind == Kind.TOUCH || kind == Kind.WRITE;
    }

    WriteDurability durability() {
        return durability;
    }

    AttributeChanges changes() {
        return changes;
    }

    SessionRecord current() {
        return current;
    }

    /** The user indexed before this save, when this save changes it. */
    Optional<String> previousUser() {
        return userChanges() ? base.indexedUser() : Optional.empty();
    }

    /** The user this save indexes, when it changes it. */
    Optional<String> newUser() {
        return userChanges() ? user : Optional.empty();
    }

    private boolean userChanges() {
        return !user.equals(base.indexedUser());
    }

    /** The state after this request: its base plus exactly what it changed. */
    StoredState.Builder stateFromBase() {
        return onto(base);
    }

    /**
     * This request's changes on top of {@code target}: its attribute changes, its metadata where it
     * changed them, the home it claimed, and the later of the two access times.
     */
    StoredState.Builder onto(StoredState target) {
        Instant lastAccess = latest(target.lastAccessTime(), current.lastAccessTime());
        StoredState.Builder next = changes.applyTo(target.toBuilder()).lastAccessTime(lastAccess);
        if (!current.maxInactiveInterval().equals(base.maxInactiveInterval())) {
            next.maxInactiveInterval(current.maxInactiveInterval());
        }
        if (!current.login().equals(base.login())) {
            next.login(current.login());
        }
        if (userChanges()) {
            next.indexedUser(user);
        }
        claimedHome.ifPresent(route -> next.home(claimedHome));
        return next;
    }

    /**
     * Whether another writer, going from {@code base} to {@code newer}, changed an attribute this
     * request changed too: the two changes cannot both hold.
     */
    boolean collidesWith(StoredState newer) {
        for (String name : changes.written().keySet()) {
            if (!Arrays.equals(base.attributeBytes().get(name), newer.attributeBytes().get(name))) {
                return true;
            }
        }
        for (String name : changes.removed()) {
            if (!Arrays.equals(base.attributeBytes().get(name), newer.attributeBytes().get(name))) {
                return true;
            }
        }
        return false;
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** The durability each kind of write uses. */
    record Durabilities(WriteDurability write, WriteDurability touch) {
        Durabilities {
            Objects.requireNonNull(write);
            Objects.requireNonNull(touch);
        }

        static Durabilities of(StoreSettings settings) {
            return new Durabilities(settings.get(Setting.WRITE_DURABILITY), settings.get(Setting.TOUCH_DURABILITY));
        }

        /**
         * Creating, invalidating, moving and logging in or out must survive a crash: SYNC_WAL at least,
         * FSYNC_WAL when attribute writes get it.
         */
        WriteDurability lifecycle() {
            return write == WriteDurability.FSYNC_WAL ? WriteDurability.FSYNC_WAL : WriteDurability.SYNC_WAL;
        }
    }
}
