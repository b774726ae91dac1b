package io.hbasesessions.store;

import io.hbasesessions.store.codec.CodecException;
import io.hbasesessions.store.codec.PerClass;
import io.hbasesessions.store.codec.SessionCodec;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.time.temporal.TemporalAmount;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiPredicate;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A session's attributes as the application uses them during a request: a map the adapters hand to
 * the container as the session's own attribute map. Values are decoded when first read, so a request
 * pays only for the attributes it uses, and the map knows what the request did with each one:
 * <ul>
 *   <li>an attribute never read nor set cannot have changed, and is never compared or written;</li>
 *   <li>one that was set counts as changed unless its encoding equals the stored one;</li>
 *   <li>one that was read may have been changed in place: unless its type is immutable, its encoding
 *       at save time is compared with the encoding of the value as it was decoded, in this JVM (never
 *       with the stored bytes, which another JVM may have produced from a different hash layout).</li>
 * </ul>
 * An attribute that cannot be decoded (its class is gone after a redeploy, its bytes are damaged) is
 * left out for the application, reported once, and its stored bytes are carried through every write.
 * Names another container keeps for itself are hidden here and carried through unchanged too.
 *
 * <p>A container's notes (what it keeps per session outside the attributes, such as the request Tomcat's
 * FORM login saves before the login page) travel here too, as bytes the container encodes itself, under
 * names no web application sees: every container carries them unchanged, and they are stored whatever
 * the application's attribute filters keep on the node.
 *
 * <p>Thread-safe: requests of one session on one node may share it.
 */
public final class SessionAttributes extends AbstractMap<String, Object> implements ConcurrentMap<String, Object> {

    /** What the store needs to decode and report: the web application's codec and where problems go. */
    interface Decoding {
        SessionCodec codec();

        /** One attribute could not be decoded; called once per attribute. */
        void undecodable(String name, CodecException failure);
    }

    private static final PerClass<Boolean> IMMUTABLE_RECORDS = new PerClass<>(SessionAttributes::hasImmutableComponents);
    /** The names notes are stored under: this prefix and the container's name of the note. */
    static final String NOTE_PREFIX = "io.hbasesessions.note.";

    private final Decoding decoding;
    private final Predicate<String> hidden;
    private final BiPredicate<String, Object> storable;
    /** The stored value bytes this map started from, or was last saved as. */
    private Map<String, byte[]> base;
    /** Values decoded from {@link #base}, by name, with the encoding they had when decoded. */
    private final Map<String, Decoded> decoded = new LinkedHashMap<>();
    /** Values the application set since the base, by name. */
    private final Map<String, Object> set = new LinkedHashMap<>();
    private final Set<String> removed = new HashSet<>();
    private final Set<String> undecodable = new HashSet<>();
    /** Counts every put and remove: tells a caller whether anything was set since it last looked. */
    private long mutations;
    private Consumer<Object> whenDecoded = value -> { };

    private record Decoded(Object value, byte[] encodingWhenDecoded) {
    }

    /**
     * @param hidden names the application must not see (another container's own attributes)
     * @param storable which values set by the application are stored; the others live for the request only
     */
    SessionAttributes(Map<String, byte[]> base, Decoding decoding, Predicate<String> hidden,
            BiPredicate<String, Object> storable) {
        this.base = base;
        this.decoding = decoding;
        this.hidden = hidden;
        this.storable = storable;
    }

    @Override
    public synchronized Object get(Object name) {
        if (!(name instanceof String key) || isNote(key)) {
            return null;
        }
        return valueOf(key, hidden.test(key));
    }

    private Object valueOf(String key, boolean hiddenHere) {
        if (removed.contains(key)) {
            return null;
        }
        if (set.containsKey(key)) {
            return set.get(key);
        }
        if (hiddenHere || !base.containsKey(key) || undecodable.contains(key)) {
            return null;
        }
        Decoded value = decoded.get(key);
        if (value == null) {
            value = decode(key);
        }
        return value == null ? null : value.value();
    }

    private Decoded decode(String name) {
        byte[] stored = base.get(name);
        try {
            Object value = decoding.codec().decode(stored);
            Decoded result = new Decoded(value, isImmutable(value) ? stored : encodingOf(value, stored));
            decoded.put(name, result);
            whenDecoded.accept(value);
            return result;
        } catch (CodecException e) {
            undecodable.add(name);
            decoding.undecodable(name, e);
            return null;
        }
    }

    /** The value's encoding in this JVM now; the stored bytes when they are the same (most often), to keep one copy. */
    private byte[] encodingOf(Object value, byte[] stored) {
        byte[] encoding;
        try {
            encoding = decoding.codec().encode(value);
        } catch (CodecException e) {
            // A value that cannot be written again is caught by the save, if the request keeps it.
            return stored;
        }
        return Arrays.equals(encoding, stored) ? stored : encoding;
    }

    @Override
    public synchronized Object put(String name, Object value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        if (isNote(name)) {
            throw new IllegalArgumentException("Session attribute names starting with " + NOTE_PREFIX
                    + " are reserved for the container's own notes");
        }
        Object previous = get(name);
        set.put(name, value);
        removed.remove(name);
        mutations++;
        return previous;
    }

    @Override
    public synchronized Object remove(Object name) {
        if (!(name instanceof String key) || isNote(key)) {
            return null;
        }
        Object previous = get(key);
        set.remove(key);
        if (base.containsKey(key) && !hidden.test(key)) {
            removed.add(key);
        }
        mutations++;
        return previous;
    }

    @Override
    public synchronized boolean containsKey(Object name) {
        return get(name) != null;
    }

    /** The names the application can see; every one of them is decoded, so that each has a value. */
    @Override
    public synchronized Set<String> keySet() {
        return Set.copyOf(visibleEntries().keySet());
    }

    /** A snapshot: changing it does not change the session. */
    @Override
    public synchronized Set<Entry<String, Object>> entrySet() {
        return Set.copyOf(visibleEntries().entrySet());
    }

    private Map<String, Object> visibleEntries() {
        Map<String, Object> entries = new LinkedHashMap<>();
        for (String name : base.keySet()) {
            Object value = get(name);
            if (value != null) {
                entries.put(name, value);
            }
        }
        set.forEach((name, value) -> {
            if (!isNote(name)) {
                entries.put(name, value);
            }
        });
        return entries;
    }

    @Override
    public synchronized void clear() {
        for (String name : keySet()) {
            remove(name);
        }
    }

    @Override
    public synchronized Object putIfAbsent(String name, Object value) {
        Object current = get(name);
        return current != null ? current : put(name, value);
    }

    @Override
    public synchronized boolean remove(Object name, Object value) {
        if (value != null && value.equals(get(name))) {
            remove(name);
            return true;
        }
        return false;
    }

    @Override
    public synchronized boolean replace(String name, Object oldValue, Object newValue) {
        if (oldValue != null && oldValue.equals(get(name))) {
            put(name, newValue);
            return true;
        }
        return false;
    }

    @Override
    public synchronized Object replace(String name, Object value) {
        return get(name) != null ? put(name, value) : null;
    }

    /**
     * Calls {@code listener} with each value this map decodes, when it decodes it: the moment a stored
     * value comes to life in this JVM (where a container fires {@code HttpSessionActivationListener}).
     */
    public synchronized void whenDecoded(Consumer<Object> listener) {
        this.whenDecoded = listener;
    }

    /** The values that exist as objects in this JVM: decoded or set during this request. */
    public synchronized List<Object> liveValues() {
        List<Object> values = new ArrayList<>();
        decoded.forEach((name, value) -> {
            if (!set.containsKey(name) && !removed.contains(name)) {
                values.add(value.value());
            }
        });
        values.addAll(set.values());
        return values;
    }

    /** How many times a value was set or removed since this map was made. */
    public synchronized long mutations() {
        return mutations;
    }

    /** The container's note {@code name} as it encoded it, or empty. */
    public synchronized Optional<byte[]> note(String name) {
        return valueOf(NOTE_PREFIX + name, false) instanceof byte[] bytes ? Optional.of(bytes.clone()) : Optional.empty();
    }

    /** Sets the container's note {@code name} to {@code bytes}, its own encoding: the next save stores it. */
    public synchronized void putNote(String name, byte[] bytes) {
        String key = NOTE_PREFIX + name;
        set.put(key, bytes.clone());
        removed.remove(key);
        mutations++;
    }

    /** Removes the container's note {@code name}. */
    public synchronized void removeNote(String name) {
        String key = NOTE_PREFIX + name;
        set.remove(key);
        if (base.containsKey(key)) {
            removed.add(key);
        }
        mutations++;
    }

    /** The names of the container's notes this session holds. */
    public synchronized Set<String> noteNames() {
        Set<String> names = new HashSet<>();
        for (String key : base.keySet()) {
            if (isNote(key) && !removed.contains(key)) {
                names.add(key.substring(NOTE_PREFIX.length()));
            }
        }
        set.keySet().stream().filter(SessionAttributes::isNote).forEach(key -> names.add(key.substring(NOTE_PREFIX.length())));
        return names;
    }

    private static boolean isNote(String name) {
        return name.startsWith(NOTE_PREFIX);
    }

    /** Notes are stored whatever the web application keeps on the node: they are the container's, not its values. */
    private boolean stores(String name, Object value) {
        return isNote(name) || storable.test(name, value);
    }

    /** Makes the attributes exactly {@code attributes}: for a writer that replaces the whole session. */
    synchronized void replaceWith(Map<String, ?> attributes) {
        for (String name : base.keySet()) {
            if (!attributes.containsKey(name) && !hidden.test(name) && !isNote(name)) {
                removed.add(name);
            }
        }
        attributes.forEach((name, value) -> {
            if (value != null) {
                set.put(name, value);
                removed.remove(name);
            }
        });
    }

    /**
     * What changed since the base: each attribute set, or read and changed in place, with its new
     * encoding (unless it encodes exactly as stored), and each removed one.
     *
     * @throws UnserializableAttributeException naming an attribute that cannot be serialized
     */
    synchronized AttributeChanges changes(String sessionKeyHex) {
        Map<String, byte[]> written = new LinkedHashMap<>();
        Set<String> removedNames = new HashSet<>(removed);
        set.forEach((name, value) -> {
            if (!stores(name, value)) {
                if (base.containsKey(name)) {
                    removedNames.add(name);
                }
                return;
            }
            byte[] encoding = encode(name, value, sessionKeyHex);
            byte[] before = decoded.containsKey(name) ? decoded.get(name).encodingWhenDecoded() : base.get(name);
            if (!Arrays.equals(encoding, before)) {
                written.put(name, encoding);
            }
        });
        decoded.forEach((name, value) -> {
            if (!set.containsKey(name) && !removed.contains(name) && !isImmutable(value.value())) {
                byte[] encoding = encode(name, value.value(), sessionKeyHex);
                if (!Arrays.equals(encoding, value.encodingWhenDecoded())) {
                    written.put(name, encoding);
                }
            }
        });
        return new AttributeChanges(written, removedNames);
    }

    private byte[] encode(String name, Object value, String sessionKeyHex) {
        try {
            return decoding.codec().encode(value);
        } catch (CodecException e) {
            throw new UnserializableAttributeException(name, value.getClass().getName(), sessionKeyHex, e);
        }
    }

    /**
     * After a write: {@code stored} is the new base. Values this request holds stay decoded, with the
     * encoding just written (or the one they had) as what later changes are compared with; values of
     * other writers, merged in, are decoded afresh if read again.
     */
    synchronized void rebase(Map<String, byte[]> stored, AttributeChanges written) {
        Map<String, Decoded> kept = new LinkedHashMap<>();
        Map<String, Object> local = new LinkedHashMap<>();
        set.forEach((name, value) -> {
            if (!stores(name, value)) {
                local.put(name, value);
            } else if (stored.containsKey(name)) {
                kept.put(name, new Decoded(value, stored.get(name)));
            }
        });
        decoded.forEach((name, value) -> {
            byte[] now = stored.get(name);
            boolean writtenHere = written.written().containsKey(name);
            boolean unchangedByOthers = writtenHere || now != null && Arrays.equals(now, base.get(name));
            if (now != null && !kept.containsKey(name) && !local.containsKey(name) && unchangedByOthers) {
                kept.put(name, new Decoded(value.value(), writtenHere ? now : value.encodingWhenDecoded()));
            }
        });
        base = stored;
        decoded.clear();
        decoded.putAll(kept);
        set.clear();
        set.putAll(local);
        removed.clear();
        undecodable.retainAll(stored.keySet());
    }

    /** Immutable values cannot change in place: reading one never makes a request write. */
    static boolean isImmutable(Object value) {
        return value == null || isImmutableType(value.getClass());
    }

    private static boolean isImmutableType(Class<?> type) {
        if (type.isPrimitive() || type.isEnum() || type == String.class || type == Boolean.class
                || type == Character.class || type == UUID.class || type == BigInteger.class || type == BigDecimal.class
                || Number.class.isAssignableFrom(type) && type.getName().startsWith("java.lang.")
                || (TemporalAccessor.class.isAssignableFrom(type) || TemporalAmount.class.isAssignableFrom(type)
                        || java.time.ZoneId.class.isAssignableFrom(type)) && type.getName().startsWith("java.time.")
                || type.getSuperclass() != null && type.getSuperclass().isEnum()) {
            return true;
        }
        return type.isRecord() && IMMUTABLE_RECORDS.get(type);
    }

    private static boolean hasImmutableComponents(Class<?> record) {
        return Arrays.stream(record.getRecordComponents())
                .allMatch(component -> isImmutableType(component.getType()) && !component.getType().isArray()
                        && (component.getType().isPrimitive() || java.lang.reflect.Modifier.isFinal(component.getType().getModifiers())));
    }
}
