package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The attribute values that break naive Kryo setups on JDK 17, through both codecs. */
class SessionCodecTest {

    private final ClassLoader testLoader = getClass().getClassLoader();

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void roundTripsJdkValuesKryoGetsWrongByDefault(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind);
        List<Object> values = List.of(
                UUID.randomUUID(),
                Collections.unmodifiableMap(new HashMap<>(Map.of("a", 1))),
                Collections.unmodifiableList(new ArrayList<>(List.of("x", "y"))),
                Collections.synchronizedMap(new TreeMap<>(Map.of("k", "v"))),
                Collections.unmodifiableSet(Set.of(1, 2, 3)),
                List.of("immutable", "list"),
                Map.of("immutable", "map"),
                Arrays.asList(1, 2, 3),
                Instant.parse("2026-11-30T07:00:00Z"),
                new LinkedHashMap<>(Map.of("ordered", List.of(1L, 2L))));
        for (Object value : values) {
            Object copy = codec.decode(codec.encode(value), testLoader);
            assertEquals(value, copy, () -> kind + " changed a " + value.getClass().getName());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void classWithoutNoArgConstructorRoundTrips(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind);
        NoDefaultConstructor value = new NoDefaultConstructor("cart", 3);
        NoDefaultConstructor copy = (NoDefaultConstructor) codec.decode(codec.encode(value), testLoader);
        assertEquals("cart", copy.name);
        assertEquals(3, copy.count);
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void customSerializationHooksRunSoTransientStateComesBack(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind);
        RebuildsTransientState copy = (RebuildsTransientState) codec.decode(
                codec.encode(new RebuildsTransientState("hello")), testLoader);
        assertEquals("hello", copy.text);
        assertEquals(5, copy.cachedLength, "readObject must have run and rebuilt the transient field");
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void sharedReferencesInsideOneValueStayShared(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind);
        ArrayList<Object> shared = new ArrayList<>(List.of("item"));
        List<List<Object>> twice = new ArrayList<>(List.of(shared, shared));
        @SuppressWarnings("unchecked")
        List<List<Object>> copy = (List<List<Object>>) codec.decode(codec.encode(twice), testLoader);
        assertSame(copy.get(0), copy.get(1));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void classOnlyInASeparateLoaderRoundTripsWithThatLoaderAndFailsClearlyWithout(SerializerKind kind,
            @TempDir Path work) throws Exception {
        SessionCodec codec = SessionCodec.of(kind);
        try (URLClassLoader war = WarClassLoaderFixture.cartItemLoader(work)) {
            Object item = WarClassLoaderFixture.newCartItem(war, "book", 2);
            byte[] bytes = codec.encode(item);

            Object copy = codec.decode(bytes, war);
            assertSame(war, copy.getClass().getClassLoader());
            assertEquals("book x2", copy.toString());

            CodecException missing = assertThrows(CodecException.class, () -> codec.decode(bytes, testLoader));
            assertTrue(missing.getMessage().contains("war.CartItem"), missing.getMessage());
        }
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void valueHoldingAThreadCannotBeSerialized(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind);
        assertThrows(CodecException.class, () -> codec.encode(new HoldsThread()));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void garbageBytesFailAsCodecException(SerializerKind kind) {
        SessionCodec codec = SessionCodec.of(kind);
        assertThrows(CodecException.class, () -> codec.decode(new byte[] {(byte) 0xff, 0x13, 0x7f, 0, 1}, testLoader));
    }

    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void kryoInstancesAreNotSharedAcrossClassLoaders(SerializerKind kind, @TempDir Path work) throws Exception {
        SessionCodec codec = SessionCodec.of(kind);
        try (URLClassLoader first = WarClassLoaderFixture.cartItemLoader(work.resolve("a"));
                URLClassLoader redeployed = WarClassLoaderFixture.cartItemLoader(work.resolve("b"))) {
            byte[] bytes = codec.encode(WarClassLoaderFixture.newCartItem(first, "pen", 1));
            assertSame(first, codec.decode(bytes, first).getClass().getClassLoader());
            Object afterRedeploy = codec.decode(bytes, redeployed);
            assertSame(redeployed, afterRedeploy.getClass().getClassLoader());
            assertNotSame(first, afterRedeploy.getClass().getClassLoader());
        }
    }

    static final class NoDefaultConstructor implements Serializable {
        private static final long serialVersionUID = 1L;
        final String name;
        final int count;

        NoDefaultConstructor(String name, int count) {
            this.name = name;
            this.count = count;
        }
    }

    static final class RebuildsTransientState implements Serializable {
        private static final long serialVersionUID = 1L;
        final String text;
        transient int cachedLength;

        RebuildsTransientState(String text) {
            this.text = text;
            this.cachedLength = text.length();
        }

        private void writeObject(ObjectOutputStream out) throws IOException {
            out.defaultWriteObject();
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            cachedLength = text.length();
        }
    }

    static final class HoldsThread implements Serializable {
        private static final long serialVersionUID = 1L;
        final Thread worker = new Thread(() -> { });
    }
}
