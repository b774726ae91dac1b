package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hbasesessions.store.codec.CodecException;
import io.hbasesessions.store.codec.SessionCodec;
import io.hbasesessions.testvalues.AttributeValues.Holder;
import io.hbasesessions.testvalues.AttributeValues.JvmHashedKey;
import io.hbasesessions.testvalues.AttributeValues.Point;
import io.hbasesessions.testvalues.AttributeValues.Size;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the attribute map of a request counts as changed, with no HBase involved: only attributes the
 * request set, or read and changed in place; never one it did not touch; and an unchanged hash
 * collection is unchanged even when its bytes would differ from the stored ones (issue #10 item 4).
 */
class SessionAttributesTest {

    private final SessionCodec codec = SessionCodec.of(SerializerKind.KRYO, getClass().getClassLoader());
    private final List<String> undecodable = new ArrayList<>();
    private final AtomicInteger decodes = new AtomicInteger();

    private SessionAttributes attributesOf(Map<String, ?> stored) {
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        stored.forEach((name, value) -> bytes.put(name, codec.encode(value)));
        return attributesOfBytes(bytes);
    }

    private SessionAttributes attributesOfBytes(Map<String, byte[]> bytes) {
        SessionAttributes attributes = new SessionAttributes(bytes, new SessionAttributes.Decoding() {
            @Override
            public SessionCodec codec() {
                return codec;
            }

            @Override
            public void undecodable(String name, CodecException failure) {
                undecodable.add(name);
            }
        }, name -> name.startsWith("org.eclipse.jetty."), (name, value) -> !name.endsWith("node.local"));
        attributes.whenDecoded(value -> decodes.incrementAndGet());
        return attributes;
    }

    @Test
    void nothingTouchedIsNothingChangedAndNothingIsDecoded() {
        SessionAttributes attributes = attributesOf(Map.of("cart", new ArrayList<>(List.of("book")), "user", "ada"));
        assertTrue(attributes.changes("k").isEmpty());
        assertEquals(0, decodes.get(), "attributes are decoded when first read, not when loaded");
    }

    @Test
    void readingDecodesOnlyWhatIsReadAndReadingIsNotAChange() {
        SessionAttributes attributes = attributesOf(Map.of("cart", new ArrayList<>(List.of("book")), "user", "ada"));
        assertEquals(List.of("book"), attributes.get("cart"));
        assertEquals(1, decodes.get());
        assertTrue(attributes.changes("k").isEmpty());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aValueChangedInPlaceIsAChange() {
        SessionAttributes attributes = attributesOf(Map.of("cart", new ArrayList<>(List.of("book"))));
        ((List<String>) attributes.get("cart")).add("pen");

        AttributeChanges changes = attributes.changes("k");
        assertEquals(Set.of("cart"), changes.written().keySet());
        assertEquals(List.of("book", "pen"), codec.decode(changes.written().get("cart")));
    }

    @Test
    void settingAnEqualValueAgainIsNoChange() {
        SessionAttributes attributes = attributesOf(Map.of("cart", new ArrayList<>(List.of("book")), "n", 1));
        attributes.put("cart", new ArrayList<>(List.of("book")));
        attributes.put("n", 1);
        assertTrue(attributes.changes("k").isEmpty());
    }

    /** A HashMap that grew and shrank encodes differently from the stored bytes; it did not change. */
    @Test
    @SuppressWarnings("unchecked")
    void aHashMapThatGrewAndShrankIsUnchanged() {
        HashMap<String, Integer> prefs = new HashMap<>();
        prefs.put("theme", 1);
        SessionAttributes attributes = attributesOf(Map.of("prefs", prefs));
        Map<String, Integer> read = (Map<String, Integer>) attributes.get("prefs");
        for (int i = 0; i < 100; i++) {
            read.put("temporary" + i, i);
        }
        for (int i = 0; i < 100; i++) {
            read.remove("temporary" + i);
        }
        assertTrue(attributes.changes("k").isEmpty(), "grew and shrank back to what it was");
    }

    /**
     * Bytes written by another JVM, where identity hash codes (enums, objects without hashCode) and so
     * the bucket order of a hash collection differ: they are not what this JVM compares against.
     */
    @Test
    void storedBytesOfAnotherJvmsHashOrderDoNotMakeAReadValueChanged() {
        JvmHashedKey.salt = 7;
        HashSet<JvmHashedKey> keys = new HashSet<>();
        for (int id = 0; id < 8; id++) {
            keys.add(new JvmHashedKey(id));
        }
        byte[] fromAnotherJvm = codec.encode(keys);
        JvmHashedKey.salt = 1;
        SessionAttributes attributes = attributesOfBytes(new LinkedHashMap<>(Map.of("keys", fromAnotherJvm)));

        assertEquals(8, ((Set<?>) attributes.get("keys")).size());
        assertFalse(java.util.Arrays.equals(fromAnotherJvm, codec.encode(attributes.get("keys"))),
                "this JVM encodes the same set differently");
        assertTrue(attributes.changes("k").isEmpty());
    }

    @Test
    void readingAnImmutableValueNeverEncodesItAgain() {
        SessionAttributes attributes = attributesOf(Map.of("user", "ada", "size", EnumSet.of(Size.SMALL).iterator().next(),
                "point", new Point(1, 2)));
        attributes.get("user");
        attributes.get("size");
        attributes.get("point");
        assertTrue(SessionAttributes.isImmutable(new Point(1, 2)));
        assertFalse(SessionAttributes.isImmutable(new Holder(new ArrayList<>())));
        assertTrue(attributes.changes("k").isEmpty());
    }

    @Test
    void removingAStoredAttributeIsAChangeAndRemovingAnUnknownOneIsNot() {
        SessionAttributes attributes = attributesOf(Map.of("drop", "d"));
        assertEquals("d", attributes.remove("drop"));
        assertNull(attributes.remove("never-there"));
        assertEquals(Set.of("drop"), attributes.changes("k").removed());
        assertFalse(attributes.containsKey("drop"));
    }

    @Test
    void anAttributeThatCannotBeDecodedIsLeftOutReportedOnceAndKept() {
        Map<String, byte[]> bytes = new LinkedHashMap<>();
        bytes.put("broken", new byte[] {1, 2, 3, 4});
        bytes.put("fine", codec.encode("ok"));
        SessionAttributes attributes = attributesOfBytes(bytes);

        assertEquals(Set.of("fine"), attributes.keySet());
        assertNull(attributes.get("broken"));
        assertEquals(List.of("broken"), undecodable);
        attributes.put("fine", "changed");
        assertEquals(Set.of("fine"), attributes.changes("k").written().keySet(), "the broken bytes are carried, not rewritten");
    }

    @Test
    void anotherContainersOwnAttributesAreHiddenAndCarried() {
        SessionAttributes attributes = attributesOf(Map.of("org.eclipse.jetty.security.form.URI", "/x", "app", "y"));
        assertEquals(Set.of("app"), attributes.keySet());
        assertNull(attributes.get("org.eclipse.jetty.security.form.URI"));
        attributes.remove("org.eclipse.jetty.security.form.URI");
        attributes.clear();
        assertEquals(Set.of("app"), attributes.changes("k").removed());
    }

    /** Issue #28: Tomcat's session notes travel with the session, which no web application sees. */
    @Test
    void aContainersNotesAreStoredWhateverItsFiltersHiddenFromTheApplicationAndCarried() {
        SessionAttributes attributes = attributesOf(Map.of("app", "y"));
        attributes.putNote("node.local", new byte[] {1, 2});
        attributes.putNote("saved", new byte[] {3});
        assertEquals(Set.of("app"), attributes.keySet());
        assertArrayEquals(new byte[] {1, 2}, attributes.note("node.local").orElseThrow());
        AttributeChanges written = attributes.changes("k");
        assertEquals(2, written.written().size(), "notes are stored even under a name the filters keep on the node");
        attributes.rebase(written.written(), written);

        SessionAttributes nextRequest = attributesOfBytes(new LinkedHashMap<>(written.written()));
        assertEquals(Set.of(), nextRequest.keySet());
        assertNull(nextRequest.get(SessionAttributes.NOTE_PREFIX + "saved"));
        assertArrayEquals(new byte[] {3}, nextRequest.note("saved").orElseThrow());
        assertEquals(Set.of("node.local", "saved"), nextRequest.noteNames());
        nextRequest.clear();
        assertTrue(nextRequest.changes("k").isEmpty(), "the application's clear() leaves the notes");
        nextRequest.removeNote("saved");
        assertEquals(Set.of(SessionAttributes.NOTE_PREFIX + "saved"), nextRequest.changes("k").removed());
        assertThrows(IllegalArgumentException.class, () -> nextRequest.put(SessionAttributes.NOTE_PREFIX + "x", "y"));
    }

    @Test
    void valuesTheContainerKeepsOnTheNodeAreNeverStored() {
        SessionAttributes attributes = attributesOf(Map.of());
        attributes.put("node.local", new Object());
        attributes.put("stored", "x");
        assertEquals(Set.of("stored"), attributes.changes("k").written().keySet());
        assertTrue(attributes.containsKey("node.local"));
    }

    @Test
    void aValueThatCannotBeSerializedFailsTheSaveNamingIt() {
        SessionAttributes attributes = attributesOf(Map.of());
        attributes.put("thread", new Holder(new ArrayList<>(List.of(new Thread(() -> { })))));
        UnserializableAttributeException failure = assertThrows(UnserializableAttributeException.class,
                () -> attributes.changes("abc123"));
        assertEquals("thread", failure.attributeName());
        assertTrue(failure.getMessage().contains("abc123"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void afterASaveChangesAreCountedFromWhatWasWritten() {
        SessionAttributes attributes = attributesOf(Map.of("cart", new ArrayList<>(List.of("book"))));
        ((List<String>) attributes.get("cart")).add("pen");
        AttributeChanges first = attributes.changes("k");
        attributes.rebase(first.written(), first);
        assertTrue(attributes.changes("k").isEmpty());
        ((List<String>) attributes.get("cart")).add("ink");
        assertEquals(Set.of("cart"), attributes.changes("k").written().keySet());
    }
}
