package io.hbasesessions.embedded;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The classpath of the server JVM. It is built from resources that list absolute jar paths in the
 * local Maven repository, so the server's unshaded HBase and Hadoop jars never meet the shaded
 * client on the application's classpath.
 */
final class ServerClasspath {

    /** Written by the hbase-server-classpath module: the runtime classpath of hbase-server. */
    static final String SERVER_JARS = "hbase-server.classpath";

    private ServerClasspath() {
    }

    /** Watchdog first, then the configuration directory (log4j.properties), then the server's jars. */
    static String build(Path configurationDirectory) {
        List<String> jars = listedJars(SERVER_JARS);
        requireAllExist(jars);
        List<String> entries = new ArrayList<>();
        entries.add(ParentWatchdog.location().toString());
        entries.add(configurationDirectory.toString());
        entries.addAll(jars);
        return String.join(File.pathSeparator, entries);
    }

    private static List<String> listedJars(String resource) {
        try (InputStream in = ServerClasspath.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new EmbeddedHBaseException("The resource io/hbasesessions/embedded/" + resource
                        + " is missing from the classpath: build the project with Maven (mvn -B install) so that "
                        + "embedded-hbase and hbase-server-classpath are on it");
            }
            String listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return Arrays.stream(listed.split(File.pathSeparator)).filter(s -> !s.isBlank()).toList();
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot read the resource " + resource + ": rebuild the project", e);
        }
    }

    private static void requireAllExist(List<String> jars) {
        jars.stream().filter(jar -> !Files.isReadable(Path.of(jar))).findFirst().ifPresent(missing -> {
            throw new EmbeddedHBaseException("The HBase server jar " + missing + " is missing (was the local "
                    + "Maven repository cleaned?): run mvn -B install again to download it");
        });
    }
}
