package io.hbasesessions.store.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hbasesessions.store.ClassNames;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.WarClassLoaderFixture;
import io.hbasesessions.store.WarClassLoaderFixture.WarLoader;
import io.hbasesessions.testvalues.AttributeValues.Other;
import io.hbasesessions.testvalues.AttributeValues.Point;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #11 items 2 and 3, at the codec: bytes written by whoever can write the sessions table are read
 * under the read rules. A refused class is never loaded, so none of its code runs; a claimed length,
 * a nesting depth or a graph beyond the bounds is refused before the memory or the time is spent.
 * Each failure is a refused {@link CodecException}: the store drops that one attribute.
 */
public class HostileValueTest {

    /** Tomcat's own example filter (the default Tomcat applies under a SecurityManager). */
    public static final Pattern TOMCAT_FILTER = Pattern.compile("java\\.lang\\.(?:Boolean|Integer|Long|Number|String)");

    @TempDir
    Path work;

    @BeforeEach
    void forgetMarks() {
        WarClassLoaderFixture.clearMarks();
    }

    private static SessionCodec codec(SerializerKind kind, ClassLoader loader, Pattern filter) {
        return codec(kind, loader, filter, new ClassNames(List.of()));
    }

    private static SessionCodec codec(SerializerKind kind, ClassLoader loader, Pattern filter, ClassNames allowed) {
        return SessionCodec.of(kind, new ClassRules(loader, Optional.ofNullable(filter), allowed), ReadLimits.DEFAULT);
    }

    /** The bytes a forger writes for {@code value}: the store's own codecs refuse to write what their rules refuse to read. */
    static byte[] forged(SerializerKind kind, Object value) {
        return kind == SerializerKind.KRYO ? ForgedKryo.encode(value)
                : SessionCodec.of(SerializerKind.JAVA, ClassLoader.getPlatformClassLoader()).encode(value);
    }

    private static CodecException refused(SessionCodec codec, byte[] bytes) {
        CodecException failure = assertThrows(CodecException.class, () -> codec.decode(bytes));
        assertTrue(failure.refused(), failure.getMessage());
        return failure;
    }

    /** The probe of the issue: a gadget's readObject ran during load(). Named as one, it is not even loaded now. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aClassOnTheDenyListIsNeverLoadedWithNoFilterConfigured(SerializerKind kind) throws Exception {
        try (WarLoader writer = WarClassLoaderFixture.warLoader(work.resolve("writer"));
                WarLoader reader = WarClassLoaderFixture.warLoader(work.resolve("reader"))) {
            Object gadget = WarClassLoaderFixture.newInstance(writer, WarClassLoaderFixture.DENIED_GADGET);
            byte[] bytes = forged(kind, new HashMap<>(Map.of("k", List.of(gadget))));
            WarClassLoaderFixture.clearMarks();

            CodecException failure = refused(codec(kind, reader, null), bytes);
            assertTrue(failure.getMessage().contains(WarClassLoaderFixture.DENIED_GADGET + " is on the built-in deny list"),
                    failure.getMessage());
            assertEquals("", WarClassLoaderFixture.marks(), "none of the gadget's code ran");
            assertFalse(reader.wasAskedFor(WarClassLoaderFixture.DENIED_GADGET), "the class was never loaded");
        }
    }

    /** With Tomcat's filter, a Serializable class with readObject is refused by name, wherever it is in the value. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aClassTheFilterRefusesIsNeverLoadedAtTheTopOrInside(SerializerKind kind) throws Exception {
        try (WarLoader writer = WarClassLoaderFixture.warLoader(work.resolve("writer"));
                WarLoader reader = WarClassLoaderFixture.warLoader(work.resolve("reader"))) {
            Object gadget = WarClassLoaderFixture.newInstance(writer, WarClassLoaderFixture.GADGET);
            SessionCodec writing = codec(kind, writer, null);
            byte[] alone = writing.encode(gadget);
            byte[] inside = writing.encode(new ArrayList<>(List.of("cart", gadget)));
            WarClassLoaderFixture.clearMarks();

            SessionCodec filtered = codec(kind, reader, TOMCAT_FILTER);
            assertTrue(refused(filtered, alone).getMessage().contains("war.Gadget does not match"));
            assertTrue(refused(filtered, inside).getMessage().contains("does not match"));
            assertEquals("", WarClassLoaderFixture.marks());
            assertFalse(reader.wasAskedFor(WarClassLoaderFixture.GADGET));
        }
    }

    /** Kryo makes objects of any class (Objenesis) and a HashMap hashes its keys: a JVM-wide serial filter sees none of it. */
    @Test
    void aNonSerializableKeyWithoutNoArgConstructorIsRefusedBeforeItsHashCodeRuns() throws Exception {
        try (WarLoader writer = WarClassLoaderFixture.warLoader(work.resolve("writer"));
                WarLoader reader = WarClassLoaderFixture.warLoader(work.resolve("reader"))) {
            Map<Object, String> map = new HashMap<>();
            map.put(WarClassLoaderFixture.newInstance(writer, WarClassLoaderFixture.UNHASHABLE), "value");
            byte[] bytes = ForgedKryo.encode(map);
            WarClassLoaderFixture.clearMarks();

            CodecException failure = refused(codec(SerializerKind.KRYO, reader, Pattern.compile("java\\.util\\.HashMap")),
                    bytes);
            assertTrue(failure.getMessage().contains("war.Unhashable does not match"), failure.getMessage());
            assertEquals("", WarClassLoaderFixture.marks(), "neither instantiated nor hashed");
            assertFalse(reader.wasAskedFor(WarClassLoaderFixture.UNHASHABLE));
        }
    }

    /**
     * Under a filter the value's own class must match it, as Tomcat requires of what it distributes; inside
     * the value, the JDK's value classes (collections, boxed numbers) are allowed without being listed.
     */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void underAFilterTheValuesClassMustMatchAndJdkValueClassesInsideNeedNotBeListed(SerializerKind kind) {
        SessionCodec writing = SessionCodec.of(kind, getClass().getClassLoader());
        SessionCodec filtered = codec(kind, getClass().getClassLoader(), Pattern.compile(
                "java\\.util\\.(?:ArrayList|HashMap)|java\\.lang\\.String|" + Pattern.quote(Point.class.getName())));
        Object nested = new HashMap<>(Map.of("cart", new ArrayList<>(List.of(1L, Map.of("x", Set.of(2.5))))));
        assertEquals(nested, filtered.decode(writing.encode(nested)));
        assertEquals("plain", filtered.decode(writing.encode("plain")));
        assertEquals(new Point(1, 2), filtered.decode(writing.encode(new Point(1, 2))));

        CodecException topLevel = refused(filtered, writing.encode(new HashSet<>(Set.of("a"))));
        assertTrue(topLevel.getMessage().contains("java.util.HashSet does not match"), topLevel.getMessage());
        assertTrue(refused(filtered, writing.encode(42)).getMessage().contains("java.lang.Integer does not match"));
        assertTrue(refused(filtered, writing.encode(new ArrayList<>(List.of(new Point(1, 2), new Other()))))
                .getMessage().contains(Other.class.getName() + " does not match"));
    }

    /**
     * Kryo and Java serialization both fell back to the server's class loader (this library's) for classes the web
     * application cannot see: only a class {@code allowedAttributeClasses} names is looked for there now.
     */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aClassOnlyTheServersClassPathHasIsNotResolvedUnlessAllowedByName(SerializerKind kind) throws Exception {
        byte[] bytes = SessionCodec.of(kind, getClass().getClassLoader()).encode(new Point(3, 4));
        try (WarLoader war = WarClassLoaderFixture.warLoader(work)) {
            CodecException failure = assertThrows(CodecException.class, () -> codec(kind, war, null).decode(bytes));
            assertTrue(failure.getMessage().contains("class not found: " + Point.class.getName()), failure.getMessage());
            CodecException filtered = assertThrows(CodecException.class,
                    () -> codec(kind, war, Pattern.compile(Pattern.quote(Point.class.getName()))).decode(bytes));
            assertTrue(filtered.getMessage().contains("class not found"), "a filter only narrows: " + filtered.getMessage());

            Object listed = codec(kind, war, null, ClassNames.parse(Point.class.getName())).decode(bytes);
            assertEquals(new Point(3, 4), listed);
        }
    }

    /** The probe: a 10-byte attribute claiming a 2 GB byte[] allocated it; so would a String, an array, a list, a map. */
    @Test
    void countsClaimingGigabytesAreRefusedBeforeAnythingIsAllocated() {
        SessionCodec kryo = SessionCodec.of(SerializerKind.KRYO, getClass().getClassLoader());
        byte[] hugeByteArray = kryoClaim(kryo.encode(new byte[] {1, 2, 3}), 0);
        assertEquals(10, hugeByteArray.length);
        Map<String, byte[]> claims = Map.of(
                "byte[]", hugeByteArray,
                "String", withUtf8Claim(kryo.encode("ünïcode")),
                "Object[]", kryoClaim(kryo.encode(new Object[] {"a"}), 0),
                "ArrayList", kryoClaim(kryo.encode(new ArrayList<>(List.of("a", "b"))), 0x80),
                "HashMap", kryoClaim(kryo.encode(new HashMap<>(Map.of("a", "b"))), 0),
                "java byte[]", javaByteArrayClaim());
        claims.forEach((what, bytes) -> {
            SessionCodec codec = what.startsWith("java") ? SessionCodec.of(SerializerKind.JAVA, getClass().getClassLoader())
                    : kryo;
            long allocated = allocatedBytesDuring(() -> refused(codec, bytes));
            System.out.printf("A %d-byte value claiming 2^31 elements (%s) was refused; %,d bytes allocated%n",
                    bytes.length, what, allocated);
            assertTrue(allocated < 4 * 1024 * 1024, what + ": " + allocated + " bytes allocated");
        });
    }

    /**
     * The probe: 409 bytes of nested HashSets took 4.5 s, doubling per level. Each level holds the
     * same two sets of the level below, so hashing the outer set walks 2^levels sets.
     */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void nestedHashSetsSharingTheirElementsAreCutOffAfterAFewLevels(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind, getClass().getClassLoader());
        byte[] bomb = codec.encode(hashSetBomb(kind == SerializerKind.KRYO ? 25 : 20));
        long start = System.nanoTime();
        CodecException failure = refused(codec, bomb);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.printf("%s: a %d-byte nested HashSet bomb was refused in %d ms: %s%n", kind, bomb.length, millis,
                failure.getMessage());
        assertTrue(failure.getMessage().contains("unfolds to more than"), failure.getMessage());
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void deepNestingIsRefusedWithoutOverflowingTheStack(SerializerKind kind) throws Exception {
        SessionCodec codec = SessionCodec.of(kind, getClass().getClassLoader());
        byte[] deep = encodedWithALargeStack(codec, nestedLists(100_000));
        CodecException failure = refused(codec, deep);
        assertTrue(failure.getMessage().contains("nested deeper than " + ReadLimits.MAX_DEPTH), failure.getMessage());

        List<Object> withinTheLimit = nestedLists(ReadLimits.MAX_DEPTH / 2);
        assertEquals(withinTheLimit, codec.decode(codec.encode(withinTheLimit)), "nesting within the limit decodes");
    }

    private static List<Object> nestedLists(int levels) {
        List<Object> outermost = new ArrayList<>();
        List<Object> innermost = outermost;
        for (int level = 1; level < levels; level++) {
            List<Object> next = new ArrayList<>();
            innermost.add(next);
            innermost = next;
        }
        return outermost;
    }

    /** Writing is recursive too: a writer with a stack large enough for what no reader should accept. */
    private static byte[] encodedWithALargeStack(SessionCodec codec, Object value) throws InterruptedException {
        byte[][] encoded = new byte[1][];
        Thread writer = new Thread(null, () -> encoded[0] = codec.encode(value), "deep-writer", 1L << 30);
        writer.start();
        writer.join();
        return encoded[0];
    }

    /** What one thread allocated while {@code action} ran (HotSpot's per-thread count). */
    private static long allocatedBytesDuring(Runnable action) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        action.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /**
     * Kryo's encoding of a small value with the count that follows its class and reference marker replaced
     * by 2^31 - 1 (plus one, as Kryo writes it); {@code flag} is the flag bit of counts written with one.
     */
    public static byte[] kryoClaim(byte[] encoded, int flag) {
        int countAt = countOffset(encoded);
        ByteBuffer claim = ByteBuffer.allocate(countAt + 5);
        claim.put(encoded, 0, countAt);
        if (flag == 0) {
            claim.put(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07});
        } else {
            // Flag varint: bit 7 is the flag, bit 6 says more follows, 6 bits of value in the first byte.
            claim.put(new byte[] {(byte) (0xC0 | 0x3f), (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f});
        }
        return claim.array();
    }

    /** Where the count starts: after the class (a name: id byte, name id, ASCII name with its last byte's high bit) and the reference marker. */
    private static int countOffset(byte[] encoded) {
        int position = 2;
        while ((encoded[position] & 0x80) == 0) {
            position++;
        }
        return position + 2;
    }

    /** A Kryo String (registered: an id, then a reference marker) whose UTF-8 char count claims about 2^31 characters. */
    private static byte[] withUtf8Claim(byte[] encoded) {
        byte[] claim = Arrays.copyOf(encoded, 7);
        System.arraycopy(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f}, 0, claim, 2, 5);
        return claim;
    }

    /** A Java stream holding a byte[] that claims 2^31 - 1 elements and has none. */
    private static byte[] javaByteArrayClaim() {
        byte[] encoded = SessionCodec.of(SerializerKind.JAVA, HostileValueTest.class.getClassLoader())
                .encode(new byte[] {1});
        ByteBuffer claim = ByteBuffer.wrap(Arrays.copyOf(encoded, encoded.length - 1));
        claim.putInt(encoded.length - 5, Integer.MAX_VALUE);
        return claim.array();
    }

    /** Sets that each hold the same two sets of the level below; cheap to build and write, exponential to hash. */
    public static Set<Object> hashSetBomb(int levels) {
        Set<Object> root = new HashSet<>();
        Set<Object> left = root;
        Set<Object> right = new HashSet<>();
        for (int level = 0; level < levels; level++) {
            Set<Object> leftBelow = new HashSet<>();
            Set<Object> rightBelow = new HashSet<>();
            leftBelow.add("level");
            left.add(leftBelow);
            left.add(rightBelow);
            right.add(leftBelow);
            right.add(rightBelow);
            left = leftBelow;
            right = rightBelow;
        }
        return root;
    }
}
