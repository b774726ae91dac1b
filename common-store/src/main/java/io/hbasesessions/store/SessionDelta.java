package io.hbasesessions.store;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What one request changed in a session, found by comparing serialized bytes (so an object changed
 * in place counts, and an object set again unchanged does not). Applied to the state that was loaded,
 * or, after a conflict, to the newer state another writer stored: only what this request changed
 * is carried over, so two requests changing different attributes both survive.
 */
final class SessionDelta {

    private final SerializerKind writeKind;
    private final SessionRecord current;
    private final Map<String, byte[]> encodedAttributes;
    private final Map<String, byte[]> changedAttributes;
    private final Set<String> removedAttributes;
    private final Map<String, String> changedExtras;
    private final Set<String> removedExtras;
    private final boolean principalChanged;
    private final boolean maxInactiveChanged;

    private SessionDelta(SerializerKind writeKind, SessionRecord current, Map<String, byte[]> encodedAttributes,
            StoredState loadedState, SessionRecord loadedRecord) {
        this.writeKind = writeKind;
        this.current = current;
        this.encodedAttributes = encodedAttributes;
        this.changedAttributes = changedEntries(encodedAttributes, loadedState.attributeBytes());
        this.removedAttributes = removedKeys(loadedRecord.attributes().keySet(), current.attributes().keySet());
        this.changedExtras = changedEntries(current.extras(), loadedState.extras());
        this.removedExtras = removedKeys(loadedState.extras().keySet(), current.extras().keySet());
        this.principalChanged = !Objects.equals(current.principal(), loadedState.principal());
        this.maxInactiveChanged = !current.maxInactiveInterval().equals(loadedState.maxInactiveInterval());
    }

    /** @throws UnserializableAttributeException if one of {@code current}'s attributes cannot be serialized */
    static SessionDelta between(LoadedSession loaded, SessionRecord current, RecordSerializer serializer,
            String sessionKeyHex) {
        return new SessionDelta(serializer.writeKind(), current, serializer.encodeAttributes(current, sessionKeyHex),
                loaded.storedState(), loaded.record());
    }

    boolean attributesChanged() {
        return !changedAttributes.isEmpty() || !removedAttributes.isEmpty();
    }

    boolean metadataChanged() {
        return principalChanged || maxInactiveChanged || !changedExtras.isEmpty() || !removedExtras.isEmpty();
    }

    boolean principalChanged() {
        return principalChanged;
    }

    boolean isEmpty() {
        return !attributesChanged() && !metadataChanged();
    }

    /** The state after this request: {@code base} plus exactly what this request changed. */
    StoredState applyTo(StoredState base) {
        Instant lastAccess = latest(base.lastAccessTime(), current.lastAccessTime());
        if (base.serializer() != writeKind) {
            // Values of another codec cannot sit beside ours under one format byte: write ours whole.
            return new StoredState(writeKind, base.creationTime(), lastAccess, current.maxInactiveInterval(),
                    current.principal().orElse(null), current.extras(), encodedAttributes)
                    .withCellTtlMillis(base.cellTtlMillis());
        }
        Map<String, String> extras = new LinkedHashMap<>(base.extras());
        extras.keySet().removeAll(removedExtras);
        extras.putAll(changedExtras);
        return base.withAttributeChanges(changedAttributes, removedAttributes).withMetadata(lastAccess,
                maxInactiveChanged ? current.maxInactiveInterval() : base.maxInactiveInterval(),
                principalChanged ? current.principal().orElse(null) : base.principal().orElse(null),
                extras);
    }

    private static Instant latest(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static <V> Map<String, V> changedEntries(Map<String, V> now, Map<String, V> before) {
        Map<String, V> changed = new HashMap<>();
        now.forEach((name, value) -> {
            if (!sameValue(value, before.get(name))) {
                changed.put(name, value);
            }
        });
        return changed;
    }

    private static boolean sameValue(Object a, Object b) {
        return a instanceof byte[] bytesA && b instanceof byte[] bytesB ? Arrays.equals(bytesA, bytesB) : Objects.equals(a, b);
    }

    private static Set<String> removedKeys(Set<String> before, Set<String> now) {
        Set<String> removed = new HashSet<>(before);
        removed.removeAll(now);
        return removed;
    }
}
