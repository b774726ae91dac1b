package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectStreamConstants;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #27, without knowing a single gadget: every class each shipped artifact carries is named in a forged
 * attribute value, in the Kryo and the Java wire format, and decoded by that artifact's own codec. None may get
 * past the class rules where the artifact is the server's class path (Tomcat's {@code lib/}, Jetty's module, the
 * admin command line); where the application shares the artifact's class loader (a Boot application with the
 * starter, a WAR with the Shiro DAO in its {@code WEB-INF/lib}), only Serializable classes of jars that are not
 * this project's may: the application's own libraries, Shiro in that WAR. A class that gets past the rules is one
 * whose decoding went on beyond its name; each refusal is thrown before an object of the class is made.
 */
class ShippedClassesIT {

    /** The jars (by file name) this project ships: its own and those of the libraries it brings. */
    private static final List<String> PRODUCT_JARS = List.of("hbase-sessions-", "common-store-", "tomcat-manager-",
            "jetty-session-datastore-", "shiro-session-dao-", "spring-boot-support-", "spring-boot3-autoconfigure-",
            "spring-boot4-autoconfigure-", "micrometer-metrics-", "admin-cli-", "hbase-shaded-client-", "kryo-",
            "reflectasm-", "minlog-", "objenesis-", "HdrHistogram-", "htrace-core4-", "audience-annotations-",
            "opentelemetry-");

    /** A shipped artifact and the class path it is used on. */
    enum Artifact {
        TOMCAT_JAR, JETTY_MODULE, SPRING_BOOT_STARTER, SHIRO_DAO_IN_A_WAR, ADMIN_CLI;

        /** Its jars (and, for the WAR, its classes directory), unpacked under {@code work} where needed. */
        List<Path> classPath(Path work) throws IOException {
            return switch (this) {
                case TOMCAT_JAR -> List.of(Path.of(System.getProperty("tomcat.dropin.jar")));
                case JETTY_MODULE -> {
                    FileTrees.unzip(Path.of(System.getProperty("jetty.module.zip")), work);
                    yield filesIn(work.resolve("lib/hbase-sessions"));
                }
                case SPRING_BOOT_STARTER -> Stream.of(Files.readString(Path.of(System.getProperty("starter.classpath")))
                        .strip().split(java.io.File.pathSeparator)).map(Path::of).toList();
                case SHIRO_DAO_IN_A_WAR -> {
                    FileTrees.unzip(Path.of(System.getProperty("shiro.war")), work);
                    List<Path> war = new ArrayList<>(filesIn(work.resolve("WEB-INF/lib")));
                    war.add(work.resolve("WEB-INF/classes"));
                    yield war;
                }
                case ADMIN_CLI -> List.of(Path.of(System.getProperty("admin.cli.jar")));
            };
        }

        /** Whether the application shares the artifact's class loader, rather than having one below it. */
        boolean sharedWithTheApplication() {
            return this == SPRING_BOOT_STARTER || this == SHIRO_DAO_IN_A_WAR;
        }
    }

    @ParameterizedTest
    @EnumSource(Artifact.class)
    void noClassTheArtifactCarriesCanBeMadeFromACellUnlessItIsAnApplicationsSerializableClass(Artifact artifact)
            throws Exception {
        Path work = Path.of("target", "it", "shipped-classes", artifact.name().toLowerCase(Locale.ROOT)).toAbsolutePath();
        FileTrees.deleteRecursively(work);
        List<Path> classPath = artifact.classPath(work);
        try (URLClassLoader shipped = new URLClassLoader(urls(classPath), servletApi());
                URLClassLoader emptyWebapp = new URLClassLoader(new URL[0], shipped)) {
            ClassLoader application = artifact.sharedWithTheApplication() ? shipped : emptyWebapp;
            int named = 0;
            List<Admitted> admitted = new ArrayList<>();
            for (Path entry : classPath) {
                for (String className : classNamesIn(entry)) {
                    named++;
                    for (String codec : List.of("KRYO", "JAVA")) {
                        if (getsPastTheRules(shipped, codec, application, className) && loads(shipped, className)) {
                            admitted.add(new Admitted(codec, className, isProductJar(entry),
                                    isSerializable(shipped, className)));
                        }
                    }
                }
            }
            List<Admitted> outsideTheAllowedSet = admitted.stream()
                    .filter(what -> what.outsideTheAllowedSet(artifact.sharedWithTheApplication())).toList();
            Figures.print("shipped classes", artifact + ": " + named + " classes named in Kryo and in Java bytes; "
                    + admitted.size() + " times a class got past the class rules, " + outsideTheAllowedSet.size()
                    + " of them outside the allowed set" + (outsideTheAllowedSet.isEmpty() ? ""
                            : ", e.g. " + outsideTheAllowedSet.subList(0, Math.min(5, outsideTheAllowedSet.size()))));
            assertTrue(named > 1000, "too few classes found in " + classPath);
            assertEquals(List.of(), outsideTheAllowedSet.subList(0, Math.min(50, outsideTheAllowedSet.size())),
                    outsideTheAllowedSet.size() + " times a class of " + artifact + " could be made from a cell");
        }
    }

    /** A class that got past the class rules: what the codec went on to read an object of. */
    private record Admitted(String codec, String className, boolean productJar, boolean serializable) {
        /**
         * Only an application's own Serializable class may be made from a cell: nothing of an artifact on the
         * server's class path, nothing of this project's jars anywhere.
         */
        boolean outsideTheAllowedSet(boolean sharedWithTheApplication) {
            return !sharedWithTheApplication || productJar || !serializable;
        }
    }

    /**
     * Decodes a value naming {@code className} with the artifact's own codec (as the artifact's code sees the
     * application): false when the class rules refused it, the class is not there to load, or Java serialization
     * itself refused to make an object of it (a class that is not Serializable).
     */
    private static boolean getsPastTheRules(ClassLoader shipped, String codec, ClassLoader application,
            String className) throws ReflectiveOperationException {
        Class<?> kinds = shipped.loadClass("io.hbasesessions.store.SerializerKind");
        Class<?> sessionCodec = shipped.loadClass("io.hbasesessions.store.codec.SessionCodec");
        Object kind = kinds.getMethod("valueOf", String.class).invoke(null, codec);
        Object decoder = sessionCodec.getMethod("of", kinds, ClassLoader.class).invoke(null, kind, application);
        Method decode = sessionCodec.getMethod("decode", byte[].class);
        try {
            decode.invoke(decoder, codec.equals("KRYO") ? kryoNaming(className) : javaNaming(className));
            return true;
        } catch (InvocationTargetException e) {
            Throwable failure = e.getCause();
            String message = String.valueOf(failure.getMessage());
            boolean refused = (Boolean) failure.getClass().getMethod("refused").invoke(failure);
            return !refused && !message.startsWith("class not found") && !message.contains("invalid for deserialization");
        }
    }

    /** A Kryo value whose class is {@code className} by name, then bytes that are no object of it. */
    static byte[] kryoNaming(String className) {
        com.esotericsoftware.kryo.io.Output output = new com.esotericsoftware.kryo.io.Output(64, -1);
        output.writeVarInt(1, true); // a class by name (Kryo's NAME + 2), not a registration
        output.writeVarInt(0, true); // the first name of the value
        output.writeString(className);
        output.writeVarInt(1, true); // not null, not a reference to an earlier object
        output.writeBytes(new byte[16]);
        return output.toBytes();
    }

    /** A Java stream holding an object of {@code className}: its class description and nothing else. */
    static byte[] javaNaming(String className) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeShort(ObjectStreamConstants.STREAM_MAGIC);
            out.writeShort(ObjectStreamConstants.STREAM_VERSION);
            out.writeByte(ObjectStreamConstants.TC_OBJECT);
            out.writeByte(ObjectStreamConstants.TC_CLASSDESC);
            out.writeUTF(className);
            out.writeLong(1L);
            out.writeByte(ObjectStreamConstants.SC_SERIALIZABLE);
            out.writeShort(0);
            out.writeByte(ObjectStreamConstants.TC_ENDBLOCKDATA);
            out.writeByte(ObjectStreamConstants.TC_NULL);
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether the class can be loaded at all here (one needing a library the artifact leaves out can never be made). */
    private static boolean loads(ClassLoader loader, String className) {
        try {
            Class.forName(className, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    private static boolean isSerializable(ClassLoader loader, String className) throws ClassNotFoundException {
        return Serializable.class.isAssignableFrom(Class.forName(className, false, loader));
    }

    private static boolean isProductJar(Path entry) {
        String name = entry.getFileName().toString();
        return PRODUCT_JARS.stream().anyMatch(name::startsWith) || entry.toString().contains("/target/classes");
    }

    /** The names of the classes of a jar or a classes directory (not module descriptors, not multi-release copies). */
    private static List<String> classNamesIn(Path entry) throws IOException {
        List<String> files = new ArrayList<>();
        if (Files.isDirectory(entry)) {
            try (Stream<Path> walk = Files.walk(entry)) {
                walk.filter(Files::isRegularFile).forEach(file -> files.add(entry.relativize(file).toString()));
            }
        } else {
            try (ZipFile jar = new ZipFile(entry.toFile())) {
                jar.stream().map(ZipEntry::getName).forEach(files::add);
            }
        }
        return files.stream().filter(file -> file.endsWith(".class") && !file.startsWith("META-INF/")
                        && !file.endsWith("module-info.class") && !file.endsWith("package-info.class"))
                .map(file -> file.substring(0, file.length() - ".class".length()).replace('/', '.'))
                .collect(Collectors.toCollection(TreeSet::new)).stream().toList();
    }

    private static List<Path> filesIn(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }

    private static URL[] urls(List<Path> classPath) {
        return classPath.stream().map(path -> {
            try {
                return path.toUri().toURL();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toArray(URL[]::new);
    }

    /** The container's part of a web application's class path: Tomcat's Servlet API, so that the artifacts' classes link. */
    private static ClassLoader servletApi() {
        Path servletApi = Path.of(System.getProperty("distributions"), "apache-tomcat-"
                + System.getProperty("tomcat10.dist.version"), "lib", "servlet-api.jar");
        return new URLClassLoader(urls(List.of(servletApi)), ClassLoader.getPlatformClassLoader());
    }
}
