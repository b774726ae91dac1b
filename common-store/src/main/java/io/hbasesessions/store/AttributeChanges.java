package io.hbasesessions.store;

import java.util.Map;
import java.util.Set;

/**
 * The attributes one request changed: each one set or changed in place, with its new encoding, and
 * each one removed. Applied to the state that was loaded or, after a conflict, to the newer state
 * another writer stored: only these attributes are carried over, so two requests changing different
 * attributes both keep theirs, and an attribute this request did not change is never written back.
 */
record AttributeChanges(Map<String, byte[]> written, Set<String> removed) {

    AttributeChanges {
        written = Map.copyOf(written);
        removed = Set.copyOf(removed);
    }

    boolean isEmpty() {
        return written.isEmpty() && removed.isEmpty();
    }

    StoredState.Builder applyTo(StoredState.Builder state) {
        removed.forEach(state::removeAttribute);
        written.forEach(state::attribute);
        return state;
    }
}
