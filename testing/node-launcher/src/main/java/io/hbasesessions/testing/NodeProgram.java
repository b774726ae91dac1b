package io.hbasesessions.testing;

import io.hbasesessions.embedded.ParentWatchdog;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * A node program to run in a JVM of its own: its main class, and the runtime classpath its Maven
 * module wrote into its jar as a resource. Tomcat's and Jetty's servlet APIs cannot share a JVM, so
 * a module that starts nodes depends on the node modules without their dependencies (only for that
 * resource), and each node gets the classpath its module listed.
 *
 * <p>{@code jarReplacements} optionally names a second resource, a properties file of
 * {@code artifactId=jar}: each listed jar of that artifact is swapped for the given one (Tomcat 11's
 * jars for Tomcat 10.1's).
 *
 * @param container "Tomcat" or "Jetty", for messages
 */
public record NodeProgram(String container, String mainClass, String classpathResource, String jarReplacements) {

    /** The embedded Tomcat node (module tomcat-node) on Tomcat 10.1. */
    public static final NodeProgram TOMCAT_10_1 = new NodeProgram("Tomcat", "io.hbasesessions.testing.tomcat.TomcatNodeMain",
            "io/hbasesessions/testing/tomcat/node.classpath", null);
    /** The same node on Tomcat 11: tomcat-embed-core and tomcat-annotations-api swapped for 11's. */
    public static final NodeProgram TOMCAT_11 = new NodeProgram("Tomcat", TOMCAT_10_1.mainClass,
            TOMCAT_10_1.classpathResource, "io/hbasesessions/testing/tomcat/tomcat-11.jars");
    /** The embedded Jetty node (module jetty-node) on Jetty 12.1, ee10. */
    public static final NodeProgram JETTY_12_1 = new NodeProgram("Jetty", "io.hbasesessions.testing.jetty.JettyNodeMain",
            "io/hbasesessions/testing/jetty/node.classpath", null);

    private static final String REBUILD = "rebuild with Maven (mvn -B install -DskipTests; ./demo.sh builds what it needs)";

    /** {@link ParentWatchdog} first, then the node module's own classes, then the jars it listed. */
    String classpath() {
        URL listing = resource(classpathResource);
        List<String> entries = new ArrayList<>();
        entries.add(locationOf(ParentWatchdog.class));
        entries.add(moduleLocation(listing));
        entries.addAll(replaced(listedJars(listing)));
        entries.stream().filter(entry -> !Files.exists(Path.of(entry))).findFirst().ifPresent(missing -> {
            throw new NodeProcessException("The " + container + " node's classpath names " + missing + ", which is gone: "
                    + REBUILD);
        });
        return String.join(File.pathSeparator, entries);
    }

    private List<String> replaced(List<String> jars) {
        if (jarReplacements == null) {
            return jars;
        }
        Properties replacements = new Properties();
        try (Reader in = new InputStreamReader(resource(jarReplacements).openStream(), StandardCharsets.UTF_8)) {
            replacements.load(in);
        } catch (IOException e) {
            throw new NodeProcessException("Cannot read " + jarReplacements + " (" + e + "): " + REBUILD);
        }
        List<String> result = new ArrayList<>();
        for (String jar : jars) {
            String fileName = Path.of(jar).getFileName().toString();
            String artifact = replacements.stringPropertyNames().stream()
                    .filter(name -> fileName.matches(Pattern.quote(name) + "-[0-9].*\\.jar"))
                    .findFirst().orElse(null);
            result.add(artifact == null ? jar : replacements.getProperty(artifact));
        }
        return result;
    }

    private URL resource(String name) {
        URL url = NodeProgram.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new NodeProcessException("The " + container + " node's " + name + " is not on the classpath: depend on "
                    + "its node module, and " + REBUILD);
        }
        return url;
    }

    private List<String> listedJars(URL listing) {
        try (InputStream in = listing.openStream()) {
            String listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return Arrays.stream(listed.split(File.pathSeparator)).filter(jar -> !jar.isBlank()).toList();
        } catch (IOException e) {
            throw new NodeProcessException("Cannot read the " + container + " node's classpath (" + e + "): " + REBUILD);
        }
    }

    /** {@code jar:file:/x/node.jar!/io/...} to {@code /x/node.jar}; {@code file:/x/classes/io/...} to {@code /x/classes}. */
    private String moduleLocation(URL listing) {
        String url = listing.toString();
        try {
            if (url.startsWith("jar:")) {
                return Path.of(new URI(url.substring("jar:".length(), url.indexOf("!/")))).toString();
            }
            String path = Path.of(listing.toURI()).toString();
            return path.substring(0, path.length() - classpathResource.length() - 1);
        } catch (URISyntaxException e) {
            throw new NodeProcessException("Cannot locate the " + container + " node's module from " + url + ": " + e);
        }
    }

    private static String locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new NodeProcessException("Cannot locate the classes of " + type.getName() + ": " + e);
        }
    }
}
