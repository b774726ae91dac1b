package io.hbasesessions.store.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.WarClassLoaderFixture;
import io.hbasesessions.testvalues.AttributeValues.Basket;
import io.hbasesessions.testvalues.AttributeValues.Child;
import io.hbasesessions.testvalues.AttributeValues.HoldsThread;
import io.hbasesessions.testvalues.AttributeValues.LruCache;
import io.hbasesessions.testvalues.AttributeValues.NoDefaultConstructor;
import io.hbasesessions.testvalues.AttributeValues.Parent;
import io.hbasesessions.testvalues.AttributeValues.Point;
import io.hbasesessions.testvalues.AttributeValues.RebuildsTransientState;
import io.hbasesessions.testvalues.AttributeValues.SelfHoldingHandler;
import io.hbasesessions.testvalues.AttributeValues.Size;
import io.hbasesessions.testvalues.AttributeValues.ThrowsOnRead;
import java.lang.reflect.Proxy;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Both codecs keep every attribute's object graph whole: shared references, JDK wrappers and the
 * collections they wrap, dynamic proxies whose interfaces only the web application sees, classes with
 * their own serialization hooks (issue #10 item 3).
 */
class SessionCodecTest {

    private final ClassLoader testLoader = getClass().getClassLoader();

    private SessionCodec codec(SerializerKind kind) {
        return SessionCodec.of(kind, testLoader);
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(SessionCodec codec, T value) {
        return (T) codec.decode(codec.encode(value));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void jdkValuesRoundTrip(SerializerKind kind) {
        List<Object> values = List.of(
                UUID.randomUUID(),
                Collections.unmodifiableMap(new HashMap<>(Map.of("a", 1))),
                Collections.unmodifiableList(new ArrayList<>(List.of("x", "y"))),
                Collections.synchronizedMap(new TreeMap<>(Map.of("k", "v"))),
                Collections.checkedList(new ArrayList<>(List.of("c")), String.class),
                Collections.unmodifiableSet(Set.of(1, 2, 3)),
                List.of("immutable", "list"),
                Map.of("immutable", "map"),
                Arrays.asList(1, 2, 3),
                EnumSet.of(Size.SMALL, Size.LARGE),
                new EnumMap<>(Map.of(Size.SMALL, "s")),
                Instant.parse("2026-11-30T07:00:00Z"),
                new LinkedHashMap<>(Map.of("ordered", List.of(1L, 2L))),
                new Point(3, 4),
                Size.LARGE);
        for (Object value : values) {
            assertEquals(value, roundTrip(codec(kind), value), () -> kind + " changed a " + value.getClass().getName());
        }
    }

    /** The bug issue #10 found: the view and its list came back as two unrelated lists under Kryo. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aWrapperAndTheCollectionItWrapsStayOneCollection(SerializerKind kind) {
        ArrayList<String> items = new ArrayList<>(List.of("book"));
        Basket basket = new Basket(items, Collections.unmodifiableList(items), Collections.synchronizedList(items),
                Collections.checkedList(items, String.class));

        Basket copy = roundTrip(codec(kind), basket);
        copy.items.add("pen");
        assertEquals(List.of("book", "pen"), copy.view);
        assertEquals(List.of("book", "pen"), copy.synchronizedView);
        assertEquals(List.of("book", "pen"), copy.checkedView);
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void mapWrappersShareTheirMapToo(SerializerKind kind) {
        HashMap<String, Integer> counts = new HashMap<>(Map.of("a", 1));
        List<Map<String, Integer>> holder = new ArrayList<>(List.of(counts, Collections.unmodifiableMap(counts)));

        List<Map<String, Integer>> copy = roundTrip(codec(kind), holder);
        copy.get(0).put("b", 2);
        assertEquals(Map.of("a", 1, "b", 2), copy.get(1));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void sharedReferencesInsideOneValueStayShared(SerializerKind kind) {
        ArrayList<Object> shared = new ArrayList<>(List.of("item"));
        List<List<Object>> twice = new ArrayList<>(List.of(shared, shared, List.of(shared)));
        List<List<Object>> copy = roundTrip(codec(kind), twice);
        assertSame(copy.get(0), copy.get(1));
        assertSame(copy.get(0), ((List<?>) copy.get(2)).get(0));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void anArraysAsListStaysAViewOfTheArrayNextToIt(SerializerKind kind) {
        String[] array = {"a", "b"};
        Object[] copy = roundTrip(codec(kind), new Object[] {array, Arrays.asList(array)});
        ((String[]) copy[0])[0] = "changed";
        assertEquals("changed", ((List<?>) copy[1]).get(0));
    }

    /** A subclass of a JDK collection keeps its own fields and the JDK class's state (access order). */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void anLruCacheKeepsItsBoundAndItsAccessOrder(SerializerKind kind) {
        LruCache cache = new LruCache(2);
        cache.put("a", 1);
        cache.put("b", 2);
        cache.get("a");
        LruCache copy = roundTrip(codec(kind), cache);
        assertEquals(List.of("b", "a"), List.copyOf(copy.keySet()));
        copy.put("c", 3);
        assertEquals(List.of("a", "c"), List.copyOf(copy.keySet()));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aProxyWhoseHandlerHoldsTheProxyComesBackWhole(SerializerKind kind) {
        SelfHoldingHandler handler = new SelfHoldingHandler();
        handler.self = Proxy.newProxyInstance(testLoader, new Class<?>[] {Comparable.class}, handler);
        Object copy = roundTrip(codec(kind), handler.self);
        assertSame(copy, ((SelfHoldingHandler) Proxy.getInvocationHandler(copy)).self);
    }

    /** Objects referenced from inside and outside a class with its own readObject stay one object. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void customHooksRunAndTheObjectsTheyHoldStayShared(SerializerKind kind) {
        ArrayList<String> tags = new ArrayList<>(List.of("a"));
        RebuildsTransientState hooked = new RebuildsTransientState("hello", tags);
        List<Object> holder = new ArrayList<>(List.of(hooked, tags));

        List<Object> copy = roundTrip(codec(kind), holder);
        RebuildsTransientState hookedCopy = (RebuildsTransientState) copy.get(0);
        assertEquals(5, hookedCopy.cachedLength, "readObject must have run and rebuilt the transient field");
        assertSame(hookedCopy.tags, copy.get(1));
    }

    /** A child pointing back at its parent that has its own readObject: written wholly with Java semantics. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aCycleThroughAClassWithHooksComesBackWhole(SerializerKind kind) {
        Parent parent = new Parent("root");
        parent.children.add(new Child(parent));

        Parent copy = roundTrip(codec(kind), parent);
        assertSame(copy, copy.children.get(0).parent);
        assertEquals(4, copy.nameLength);
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aProxyWhoseInterfaceOnlyTheWebappSeesRoundTrips(SerializerKind kind, @TempDir Path work) throws Exception {
        try (URLClassLoader war = WarClassLoaderFixture.warLoader(work)) {
            SessionCodec codec = SessionCodec.of(kind, war);
            Object greeter = WarClassLoaderFixture.newGreeterProxy(war, "Hello");
            List<Object> twice = new ArrayList<>(List.of(greeter, greeter));

            List<Object> copy = roundTrip(codec, twice);
            assertEquals("Hello, Ada", WarClassLoaderFixture.greet(copy.get(0), "Ada"));
            assertSame(copy.get(0), copy.get(1));
            assertSame(war, copy.get(0).getClass().getInterfaces()[0].getClassLoader());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void hashCollectionsOfEnumsAndRecordsRoundTrip(SerializerKind kind) {
        HashSet<Size> sizes = new HashSet<>(EnumSet.allOf(Size.class));
        HashMap<Point, Size> placed = new HashMap<>(Map.of(new Point(1, 2), Size.SMALL, new Point(3, 4), Size.LARGE));
        assertEquals(sizes, roundTrip(codec(kind), sizes));
        assertEquals(placed, roundTrip(codec(kind), placed));
        assertSame(Size.LARGE, roundTrip(codec(kind), Size.LARGE), "an enum constant with a body stays the constant");
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void classWithoutNoArgConstructorRoundTrips(SerializerKind kind) {
        NoDefaultConstructor copy = roundTrip(codec(kind), new NoDefaultConstructor("cart", 3));
        assertEquals("cart", copy.name);
        assertEquals(3, copy.count);
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void classOnlyInTheWebappsLoaderRoundTripsAndFailsClearlyWithoutIt(SerializerKind kind, @TempDir Path work)
            throws Exception {
        try (URLClassLoader war = WarClassLoaderFixture.warLoader(work)) {
            byte[] bytes = SessionCodec.of(kind, war).encode(WarClassLoaderFixture.newCartItem(war, "book", 2));

            Object copy = SessionCodec.of(kind, war).decode(bytes);
            assertSame(war, copy.getClass().getClassLoader());
            assertEquals("book x2", copy.toString());

            CodecException missing = assertThrows(CodecException.class, () -> codec(kind).decode(bytes));
            assertTrue(missing.getMessage().contains("war.CartItem"), missing.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aRedeployedWebappGetsItsOwnClasses(SerializerKind kind, @TempDir Path work) throws Exception {
        try (URLClassLoader first = WarClassLoaderFixture.warLoader(work.resolve("a"));
                URLClassLoader redeployed = WarClassLoaderFixture.warLoader(work.resolve("b"))) {
            byte[] bytes = SessionCodec.of(kind, first).encode(WarClassLoaderFixture.newCartItem(first, "pen", 1));
            Object afterRedeploy = SessionCodec.of(kind, redeployed).decode(bytes);
            assertSame(redeployed, afterRedeploy.getClass().getClassLoader());
            assertNotSame(first, afterRedeploy.getClass().getClassLoader());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aValueHoldingAThreadCannotBeSerialized(SerializerKind kind) {
        assertThrows(CodecException.class, () -> codec(kind).encode(new HoldsThread()));
    }

    /** Any Throwable while decoding, Errors included, is a CodecException: the caller drops that one attribute. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void errorsThrownWhileDecodingBecomeCodecExceptions(SerializerKind kind) {
        SessionCodec codec = codec(kind);
        byte[] throwsError = codec.encode(new ThrowsOnRead());
        CodecException failure = assertThrows(CodecException.class, () -> codec.decode(throwsError));
        assertTrue(causes(failure).anyMatch(cause -> cause instanceof StackOverflowError), failure.toString());
        assertThrows(CodecException.class, () -> codec.decode(new byte[] {(byte) 0xff, 0x13, 0x7f, 0, 1}));
    }

    @ParameterizedTest
    @EnumSource(value = SerializerKind.class, names = "KRYO")
    void aClaimedHugeArrayIsRefusedBeforeItIsAllocated(SerializerKind kind) {
        SessionCodec codec = codec(kind);
        byte[] small = codec.encode(new byte[] {1, 2, 3});
        // Kryo writes the class (here its name, "[B", 4 bytes), a reference marker, the length + 1 as a varint,
        // then the bytes: 0xFF 0xFF 0xFF 0xFF 0x07 claims 2^31 - 1.
        byte[] hostile = Arrays.copyOf(small, 5 + 6);
        System.arraycopy(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 1}, 0, hostile, 5, 6);
        CodecException refused = assertThrows(CodecException.class, () -> codec.decode(hostile));
        assertTrue(refused.getMessage().contains("bytes left"), refused.getMessage());
    }

    private static java.util.stream.Stream<Throwable> causes(Throwable top) {
        return java.util.stream.Stream.iterate(top, cause -> cause != null, Throwable::getCause);
    }
}
