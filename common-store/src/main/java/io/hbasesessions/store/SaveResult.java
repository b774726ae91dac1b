package io.hbasesessions.store;

import java.util.Optional;

/** What a {@link SessionStore#save} did. A conflict that was merged is a result, not an exception. */
public record SaveResult(Outcome outcome, Optional<LoadedSession> session) {

    public enum Outcome {
        /** Nothing changed and the last access was recent enough: no write. */
        UNCHANGED,
        /** Only the access time (and the expiry it drives) was rewritten. */
        TOUCHED,
        /** The whole state was written over the version that was loaded. */
        WRITTEN,
        /** Another writer got in first; this request's changes were applied on top of its state. */
        MERGED,
        /** The session was deleted or expired meanwhile; it was not brought back. */
        GONE
    }

    public static SaveResult gone() {
        return new SaveResult(Outcome.GONE, Optional.empty());
    }

    public static SaveResult of(Outcome outcome, LoadedSession session) {
        return new SaveResult(outcome, Optional.of(session));
    }

    public boolean wroteSomething() {
        return outcome == Outcome.TOUCHED || outcome == Outcome.WRITTEN || outcome == Outcome.MERGED;
    }
}
