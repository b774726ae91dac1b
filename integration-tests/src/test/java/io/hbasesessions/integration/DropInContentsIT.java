package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * What the drop-in artifacts hold: everything the adapter needs, and nothing the container (or a web
 * application on it) brings itself, since two copies of a class on one class loader chain clash.
 */
class DropInContentsIT {

    /** Classes that are Tomcat's or a web application's, by package. */
    private static final List<String> NOT_IN_TOMCAT_LIB = List.of(
            "jakarta/", "javax/servlet/", "org/apache/catalina/", "org/apache/tomcat/", "org/apache/juli/",
            "org/apache/coyote/", "org/slf4j/", "org/apache/commons/logging/", "org/apache/log4j/",
            "org/apache/logging/");

    /** Service registrations that would change what Tomcat or a web application gets. */
    private static final List<String> NO_SERVICE_FOR = List.of(
            "META-INF/services/jakarta.", "META-INF/services/javax.", "META-INF/services/java.",
            "META-INF/services/org.slf4j.", "META-INF/services/com.fasterxml.");

    @Test
    void theTomcatJarHoldsTheManagerAndItsDependenciesButNothingOfTomcatOrALoggingSetup() throws IOException {
        List<String> entries = entriesOf(Path.of(System.getProperty("tomcat.dropin.jar")));

        for (String needed : List.of(
                "io/hbasesessions/tomcat/HBaseSessionManager.class",
                "io/hbasesessions/tomcat/HBaseStore.class",
                "io/hbasesessions/store/SessionStores.class",
                "org/apache/hadoop/hbase/client/ConnectionFactory.class",
                "com/esotericsoftware/kryo/Kryo.class",
                "org/objenesis/Objenesis.class",
                "com/esotericsoftware/minlog/Log.class",
                "com/esotericsoftware/reflectasm/MethodAccess.class",
                // stickySessions keeps its copies in a Caffeine cache.
                "com/github/benmanes/caffeine/cache/Caffeine.class",
                "hbase-default.xml",
                // The HBase client's SLF4J logging, relocated and sent to java.util.logging (Tomcat's JULI).
                "io/hbasesessions/shaded/org/slf4j/LoggerFactory.class",
                "META-INF/services/io.hbasesessions.shaded.org.slf4j.spi.SLF4JServiceProvider")) {
            assertTrue(entries.contains(needed), "the Tomcat jar lacks " + needed);
        }
        assertNone(entries, entry -> NOT_IN_TOMCAT_LIB.stream().anyMatch(entry::startsWith), "Tomcat's or a web application's classes");
        assertNone(entries, entry -> NO_SERVICE_FOR.stream().anyMatch(entry::startsWith), "service registrations for the JDK, Jakarta or SLF4J");
        assertNone(entries, entry -> entry.endsWith(".tld") || entry.endsWith("web-fragment.xml"), "web descriptors Tomcat would pick up");
    }

    @Test
    void theJettyModuleHoldsTheModuleAndJarsButNoneOfJettysOwn() throws IOException {
        Path zip = Path.of(System.getProperty("jetty.module.zip"));
        Map<String, List<String>> jars = new LinkedHashMap<>();
        List<String> files;
        try (ZipFile module = new ZipFile(zip.toFile())) {
            files = module.stream().filter(entry -> !entry.isDirectory()).map(ZipEntry::getName).toList();
            for (String file : files) {
                if (file.endsWith(".jar")) {
                    try (InputStream jar = module.getInputStream(module.getEntry(file))) {
                        jars.put(file, FileTrees.entryNames(jar));
                    }
                }
            }
        }

        assertTrue(files.contains("modules/session-store-hbase.mod"), "no module file in " + files);
        assertTrue(files.contains("etc/sessions/hbase/session-store.xml"), "no module XML in " + files);
        assertEquals(List.of(), files.stream().filter(file -> !file.startsWith("modules/") && !file.startsWith("etc/")
                && !(file.startsWith("lib/hbase-sessions/") && file.endsWith(".jar"))).toList(), "files outside the module's layout");
        assertEquals(List.of("hbase-sessions-store-", "jetty-session-datastore-", "slf4j-jdk-platform-logging-"),
                jars.keySet().stream().map(jar -> jar.substring("lib/hbase-sessions/".length()).replaceAll("-[0-9][^/]*\\.jar$", "-"))
                        .sorted().toList(),
                "lib/hbase-sessions/ should hold the shaded store, the Jetty adapter and the System.Logger bridge: " + jars.keySet());
        List<String> all = jars.values().stream().flatMap(List::stream).toList();
        for (String needed : List.of(
                "io/hbasesessions/jetty/HBaseSessionDataStoreFactory.class",
                "io/hbasesessions/store/SessionStores.class",
                "org/apache/hadoop/hbase/client/ConnectionFactory.class",
                "com/esotericsoftware/kryo/Kryo.class",
                "com/github/benmanes/caffeine/cache/Caffeine.class",
                "hbase-default.xml",
                // The HBase client's SLF4J logging, relocated and sent to java.util.logging, as in Tomcat.
                "io/hbasesessions/shaded/org/slf4j/LoggerFactory.class",
                "META-INF/services/io.hbasesessions.shaded.org.slf4j.spi.SLF4JServiceProvider",
                // The store's System.Logger, sent to Jetty's SLF4J.
                "META-INF/services/java.lang.System$LoggerFinder")) {
            assertTrue(all.contains(needed), "the Jetty module's jars lack " + needed);
        }
        jars.forEach((jar, entries) -> {
            // Jetty's logging module brings SLF4J's API and Jetty's own binding, and logging-jcl-capture commons-logging.
            assertNone(entries, entry -> entry.startsWith("org/eclipse/jetty/") || entry.startsWith("jakarta/")
                    || entry.startsWith("javax/servlet/"), jar + ": Jetty's or the servlet API's classes");
            assertNone(entries, entry -> entry.startsWith("org/slf4j/") && !entry.endsWith("/")
                    && !entry.startsWith("org/slf4j/jdk/platform/logging/"),
                    jar + ": SLF4J's API or a binding");
            assertNone(entries, entry -> entry.startsWith("org/apache/commons/logging/") || entry.startsWith("org/apache/log4j/")
                    || entry.startsWith("org/apache/logging/"), jar + ": unrelocated logging APIs");
            assertNone(entries, entry -> entry.startsWith("META-INF/services/")
                    && NO_SERVICE_FOR.stream().anyMatch(entry::startsWith)
                    && !entry.equals("META-INF/services/java.lang.System$LoggerFinder"),
                    jar + ": service registrations for the JDK (StAX, charsets), Jakarta, SLF4J or Jackson");
        });
    }

    private static List<String> entriesOf(Path jar) throws IOException {
        try (InputStream in = Files.newInputStream(jar)) {
            return FileTrees.entryNames(in);
        }
    }

    private static void assertNone(List<String> entries, Predicate<String> unwanted, String what) {
        List<String> found = entries.stream().filter(unwanted).limit(10).toList();
        assertEquals(List.of(), found, "found " + what);
    }
}
