package io.hbasesessions.demo;

import io.hbasesessions.demo.jetty.JettyShopNode;
import io.hbasesessions.demo.tomcat.TomcatShopNode;
import io.hbasesessions.embedded.ParentWatchdog;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The two kinds of shop node and the classpath of each. Tomcat's and Jetty's servlet APIs cannot share
 * a JVM, so each node runs in its own, on the runtime classpath its Maven module wrote into its jar
 * ({@code node.classpath}, next to its main class); the node modules' dependencies are optional, so
 * none of them is on this launcher's classpath. Public, like {@link ShopNode}, for the cross-container tests.
 */
public enum NodeKind {

    TOMCAT("Tomcat", TomcatShopNode.class),
    JETTY("Jetty", JettyShopNode.class);

    private static final String CLASSPATH_RESOURCE = "node.classpath";

    private final String container;
    private final Class<?> mainClass;

    NodeKind(String container, Class<?> mainClass) {
        this.container = container;
        this.mainClass = mainClass;
    }

    /** "Tomcat" or "Jetty". */
    String container() {
        return container;
    }

    /** The name each node shows on the shop page: {@code tomcat-node} or {@code jetty-node}. */
    String nodeName() {
        return container.toLowerCase() + "-node";
    }

    String mainClassName() {
        return mainClass.getName();
    }

    /** {@link ParentWatchdog} first, then the node module's own jar, then the jars it listed. */
    String classpath() {
        List<String> entries = new ArrayList<>();
        entries.add(locationOf(ParentWatchdog.class).toString());
        entries.add(locationOf(mainClass).toString());
        entries.addAll(listedJars());
        return String.join(File.pathSeparator, entries);
    }

    private List<String> listedJars() {
        try (InputStream in = mainClass.getResourceAsStream(CLASSPATH_RESOURCE)) {
            if (in == null) {
                throw new DemoException("The " + container + " node's " + CLASSPATH_RESOURCE + " is missing: rebuild "
                        + "the demo (./demo.sh builds it)");
            }
            String listed = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            List<String> jars = Arrays.stream(listed.split(File.pathSeparator)).filter(jar -> !jar.isBlank()).toList();
            jars.stream().filter(jar -> !Files.exists(Path.of(jar))).findFirst().ifPresent(missing -> {
                throw new DemoException("The " + container + " node's jar " + missing + " is gone: rebuild the demo "
                        + "(./demo.sh builds it)");
            });
            return jars;
        } catch (IOException e) {
            throw new DemoException("Cannot read the " + container + " node's classpath: " + e);
        }
    }

    private static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new DemoException("Cannot locate the classes of " + type.getName() + ": " + e);
        }
    }
}
