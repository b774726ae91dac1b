package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.WarClassLoaderFixture.WarLoader;
import java.io.File;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #27's class policy, none of it about knowing gadgets: a class in a decoded value must be Serializable, the
 * web application's own (or one of the JDK's value and collection types, or named in
 * {@code allowedAttributeClasses}), and not one of the classes this library ships. Each refusal is a refused
 * {@link CodecException} naming the class and the rule; what the store would refuse to read it refuses to write.
 */
class ClassPolicyTest {

    @TempDir
    Path work;

    @BeforeEach
    void forgetMarks() {
        WarClassLoaderFixture.clearMarks();
    }

    private static SessionCodec codec(SerializerKind kind, ClassLoader application, String allowedAttributeClasses) {
        return kind.codec(new ClassRules(application, Optional.empty(), ClassNames.parse(allowedAttributeClasses)),
                ReadLimits.DEFAULT);
    }

    private static String refusal(SessionCodec codec, byte[] bytes) {
        CodecException failure = RelocatedGadgetChainTest.decodingFailure(codec, bytes);
        assertNotNull(failure, "the value was decoded");
        assertTrue(failure.refused(), failure.getMessage());
        return failure.getMessage();
    }

    /**
     * Kryo with Objenesis made an object of any class, Serializable or not, and a HashMap hashed it: the application's
     * own class, without a filter, ran its hashCode on bytes from HBase. Java serialization would not have made it.
     */
    @Test
    void aClassOfTheApplicationThatIsNotSerializableIsNeverInstantiated() throws Exception {
        try (WarLoader war = WarClassLoaderFixture.warLoader(work)) {
            Map<Object, String> map = new HashMap<>();
            map.put(WarClassLoaderFixture.newInstance(war, WarClassLoaderFixture.UNHASHABLE), "value");
            byte[] bytes = ForgedKryo.encode(map);
            WarClassLoaderFixture.clearMarks();

            CodecException failure = RelocatedGadgetChainTest.decodingFailure(codec(SerializerKind.KRYO, war, ""), bytes);
            assertEquals("", WarClassLoaderFixture.marks(), "neither instantiated nor hashed");
            assertNotNull(failure, "the value was decoded");
            assertTrue(failure.refused() && failure.getMessage().contains("war.Unhashable is not Serializable"),
                    failure.getMessage());
        }
    }

    /** A Serializable class of the server's class path (Tomcat's lib/, Jetty's server path) is not the application's. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aClassOfTheServersClassPathIsRefusedUnlessAllowedByName(SerializerKind kind) throws Exception {
        try (WarLoader server = WarClassLoaderFixture.warLoader(work); WarLoader webapp = WarClassLoaderFixture.emptyWarOn(server)) {
            byte[] bytes = SessionCodec.of(kind, server).encode(WarClassLoaderFixture.newCartItem(server, "book", 2));

            String refusal = refusal(codec(kind, webapp, ""), bytes);
            assertTrue(refusal.contains("war.CartItem is not one of the web application's own classes"), refusal);
            assertEquals("book x2", codec(kind, webapp, "war.CartItem").decode(bytes).toString());
            assertEquals("book x2", codec(kind, webapp, "war.").decode(bytes).toString(), "a package allows its classes");
        }
    }

    /** The JDK has Serializable classes beyond values and collections (files, class loaders' URLs, JMX): not session values. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aJdkClassOutsideTheValueAndCollectionTypesIsRefusedUnlessAllowedByName(SerializerKind kind) {
        byte[] bytes = HostileValueTest.forged(kind, new File("/etc/passwd"));
        String refusal = refusal(codec(kind, getClass().getClassLoader(), ""), bytes);
        assertTrue(refusal.contains("java.io.File is a JDK class that is not one of the value and collection types"), refusal);
        assertEquals(new File("/etc/passwd"), codec(kind, getClass().getClassLoader(), "java.io.File").decode(bytes));
    }

    /**
     * Where the application and this library share one class loader (Spring Boot, a WAR holding the Shiro DAO), a
     * Serializable class this library brings is refused by its name, before it is loaded, whatever is allowed.
     */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void aClassThisLibraryShipsIsRefusedWhereTheApplicationSharesItsClassLoader(SerializerKind kind) {
        Histogram histogram = new Histogram(3);
        histogram.recordValue(42);
        byte[] bytes = HostileValueTest.forged(kind, histogram);
        for (String allowed : List.of("", "org.HdrHistogram.")) {
            String refusal = refusal(codec(kind, getClass().getClassLoader(), allowed), bytes);
            assertTrue(refusal.contains("org.HdrHistogram.Histogram is one of the classes hbase-sessions ships"), refusal);
        }
    }

    /**
     * Where the policy stops: a Serializable class of the application's own is admitted, and its own hooks run
     * while it is read (here readObject and readResolve), as Java serialization runs them. A filter naming only
     * what the application stores, or stateProtection, keeps a writer of the table from choosing such classes.
     */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void theApplicationsOwnSerializableClassesAreAdmittedAndTheirHooksRun(SerializerKind kind) throws Exception {
        try (WarLoader war = WarClassLoaderFixture.warLoader(work)) {
            byte[] bytes = codec(kind, war, "").encode(WarClassLoaderFixture.newInstance(war, WarClassLoaderFixture.GADGET));
            WarClassLoaderFixture.clearMarks();

            assertEquals(WarClassLoaderFixture.GADGET, codec(kind, war, "").decode(bytes).getClass().getName());
            assertTrue(WarClassLoaderFixture.marks().contains("readObject"), WarClassLoaderFixture.marks());
        }
    }

    /** A value no node could read back is not written: the request that set it fails, as with Java serialization. */
    @Test
    void aValueTheRulesWouldRefuseToReadIsNotWritten() throws Exception {
        try (WarLoader war = WarClassLoaderFixture.warLoader(work)) {
            Object unhashable = WarClassLoaderFixture.newInstance(war, WarClassLoaderFixture.UNHASHABLE);
            CodecException failure = assertThrows(CodecException.class,
                    () -> codec(SerializerKind.KRYO, war, "").encode(List.of(unhashable)));
            assertTrue(failure.getMessage().contains("cannot be stored: class war.Unhashable is not Serializable"),
                    failure.getMessage());
        }
    }

    /** The rules decide once per class name and store: a second value of the same classes asks the loader nothing. */
    @ParameterizedTest
    @EnumSource(SerializerKind.class)
    void eachClassNameIsResolvedOnce(SerializerKind kind) throws Exception {
        try (WarLoader war = WarClassLoaderFixture.warLoader(work)) {
            SessionCodec codec = codec(kind, war, "");
            byte[] bytes = codec.encode(new HashMap<>(Map.of("item", WarClassLoaderFixture.newCartItem(war, "pen", 1))));
            int askedBefore = war.timesAskedFor("war.CartItem");
            for (int i = 0; i < 3; i++) {
                assertEquals("{item=pen x1}", codec.decode(bytes).toString());
            }
            assertEquals(askedBefore, war.timesAskedFor("war.CartItem"), "the loader was asked for war.CartItem again");
        }
    }
}
