package io.hbasesessions.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A user's sessions, found through the user index: each entry counts only while its session row still
 * exists and still belongs to the entry's user. Finding, revoking, and telling the entries of sessions
 * gone from the ones still live. Thread-safe; one per store.
 */
final class UserSessions {

    private final SaveOperation.Collaborators with;

    UserSessions(SaveOperation.Collaborators with) {
        this.with = with;
    }

    /** A session the index names whose row still exists and still belongs to the user. */
    private record OwnedSession(UserIndex.Entry entry, SessionRow row) {
    }

    List<IndexedSession> find(String user, Deadline deadline) {
        Instant now = with.clock().instant();
        return sessionsOf(user, deadline).stream()
                .filter(owned -> !with.expiry().isOverAt(owned.row().state(), now))
                .map(owned -> new IndexedSession(user, owned.entry().session().hex(), owned.row().state().creationTime()))
                .toList();
    }

    /**
     * The ids of the live sessions of {@code user} in {@code keyScope} whose entries keep their id
     * ({@link IndexEntries}) and whose session system is this store's, newest first.
     */
    List<String> idsOf(String user, String keyScope, Deadline deadline) {
        Instant now = with.clock().instant();
        return sessionsOf(user, deadline).stream()
                .filter(owned -> !with.expiry().isOverAt(owned.row().state(), now))
                .flatMap(owned -> with.entries().idOf(owned.entry(), owned.row().state(), keyScope).stream())
                .toList();
    }

    /** Ends every session of {@code user} and removes their entries; returns how many of them were live. */
    int revoke(String user, Deadline deadline) {
        List<OwnedSession> owned = sessionsOf(user, deadline);
        if (owned.isEmpty()) {
            return 0;
        }
        Instant now = with.clock().instant();
        int revoked = (int) owned.stream().filter(session -> !with.expiry().isOverAt(session.row().state(), now)).count();
        // Sessions first, then exactly their entries: a crash in between leaves entries that readers skip.
        // Entries of sessions not found stay: a login may be between its entry and its session write.
        endAll(owned, deadline);
        with.index().removeAll(owned.stream().map(OwnedSession::entry).toList(), deadline);
        with.counters().add(StoreCounter.REVOCATIONS, revoked);
        return revoked;
    }

    /** The entries among {@code entries} whose session is gone: no row, an unreadable or ended one, or another user's. */
    List<UserIndex.Entry> goneAmong(List<UserIndex.Entry> entries, Deadline deadline) {
        Instant now = with.clock().instant();
        Set<UserIndex.Entry> live = new HashSet<>();
        owned(entries, deadline).stream().filter(session -> !with.expiry().isOverAt(session.row().state(), now))
                .forEach(session -> live.add(session.entry()));
        return entries.stream().filter(entry -> !live.contains(entry)).toList();
    }

    /** Ends every owned session; one written meanwhile at the version it is at by then, if it is still the user's. */
    private void endAll(List<OwnedSession> owned, Deadline deadline) {
        Set<SessionKey> changed = new HashSet<>(with.rows().endAll(owned.stream()
                .map(session -> new SessionRows.Ending(session.entry().session(), session.row())).toList(),
                deadline));
        owned.stream().filter(session -> changed.contains(session.entry().session()))
                .forEach(session -> endIfStillOwned(session.entry(), deadline));
    }

    private void endIfStillOwned(UserIndex.Entry entry, Deadline deadline) {
        for (int attempt = 1; attempt <= SessionProtocol.MAX_END_ATTEMPTS; attempt++) {
            Optional<SessionRow> row = owned(List.of(entry), deadline).stream().map(OwnedSession::row).findFirst();
            if (row.isEmpty() || with.rows().end(entry.session(), row.get(), deadline)) {
                return;
            }
        }
        throw new StoreUnavailableException("Other writers kept changing a session while it was being revoked",
                entry.session().shortHex(), null);
    }

    private List<OwnedSession> sessionsOf(String user, Deadline deadline) {
        // A name the index cannot hold (IndexedUsers.checked) has no entries; HBase would refuse its row key.
        boolean indexable = user != null && !user.isEmpty() && user.length() <= IndexedUsers.MAX_USER_CHARS;
        return owned(indexable ? with.index().entries(user, deadline) : List.of(), deadline);
    }

    /** The entries whose session row still exists and still belongs to the entry's user, with the row. */
    private List<OwnedSession> owned(List<UserIndex.Entry> entries, Deadline deadline) {
        if (entries.isEmpty()) {
            return List.of();
        }
        List<Optional<SessionRow>> rows = with.rows().readAll(entries.stream().map(UserIndex.Entry::session).toList(),
                deadline);
        List<OwnedSession> owned = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            UserIndex.Entry entry = entries.get(i);
            rows.get(i).filter(row -> row.state().indexedUser().filter(entry.user()::equals).isPresent())
                    .ifPresent(row -> owned.add(new OwnedSession(entry, row)));
        }
        return owned;
    }
}
