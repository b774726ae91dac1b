package io.hbasesessions.store.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.minlog.Log;
import com.esotericsoftware.reflectasm.MethodAccess;
import io.hbasesessions.store.ClassNames;
import io.hbasesessions.store.SerializerKind;
import io.hbasesessions.store.WarClassLoaderFixture;
import io.hbasesessions.store.WarClassLoaderFixture.WarLoader;
import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.objenesis.Objenesis;

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
        return SessionCodec.of(kind, new ClassRules(application, Optional.empty(), ClassNames.parse(allowedAttributeClasses)),
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

    /**
     * An application packed into one jar with this library (a shaded "uber jar"), where every class, its own and
     * this library's, has one loader and one code source: a class of that jar is refused, whatever its name, so no
     * class this library brings slips through under a name the rules do not list. Here the library is loaded a
     * second time, from one directory holding its classes and the application's.
     */
    @Test
    void aClassOfAJarThisLibraryShipsInIsRefusedWhateverItsName() throws Exception {
        Path packed = Files.createDirectories(work.resolve("packed"));
        try (WarLoader war = WarClassLoaderFixture.warLoader(work.resolve("war"))) {
            copyTree(Path.of("target", "classes"), packed);
            copyTree(work.resolve("war").resolve("classes"), packed);
        }
        List<URL> classPath = new ArrayList<>(List.of(packed.toUri().toURL()));
        for (Class<?> dependency : List.of(Kryo.class, Objenesis.class, Log.class, MethodAccess.class)) {
            classPath.add(dependency.getProtectionDomain().getCodeSource().getLocation());
        }
        try (URLClassLoader application = new URLClassLoader(classPath.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            byte[] bytes = ForgedKryo.encode(WarClassLoaderFixture.newCartItem(application, "book", 1));
            Class<?> kinds = application.loadClass(SerializerKind.class.getName());
            Class<?> codecs = application.loadClass(SessionCodec.class.getName());
            Object codec = codecs.getMethod("of", kinds, ClassLoader.class).invoke(null, kinds.getField("KRYO").get(null),
                    application);
            InvocationTargetException failure = assertThrows(InvocationTargetException.class,
                    () -> codecs.getMethod("decode", byte[].class).invoke(codec, bytes));
            String refusal = failure.getCause().getMessage();
            assertTrue(refusal.contains("war.CartItem comes from " + packed.toUri().toURL().toExternalForm()
                    + ", a jar hbase-sessions ships"), refusal);
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

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
