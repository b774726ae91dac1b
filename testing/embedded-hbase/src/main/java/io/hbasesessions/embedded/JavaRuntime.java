package io.hbasesessions.embedded;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/** Checks, before anything is launched, that a Java installation can run the HBase server. */
final class JavaRuntime {

    /** HBase 2.6 dies on 25 ({@code getSubject is not supported}); our watchdog class needs 17. */
    static final int OLDEST_SUPPORTED_MAJOR = 17;
    static final int NEWEST_SUPPORTED_MAJOR = 21;

    private static final String FIX = "set JAVA_HOME to a JDK 17";

    private JavaRuntime() {
    }

    /** Returns the {@code java} executable of {@code javaHome}, or fails saying which JDK to use. */
    static Path requireSupported(Path javaHome) {
        String version = releaseVersion(javaHome);
        int major = majorVersion(version);
        if (major < OLDEST_SUPPORTED_MAJOR || major > NEWEST_SUPPORTED_MAJOR) {
            throw new EmbeddedHBaseException("HBase 2.6 cannot run on Java " + version + " (" + javaHome + "): "
                    + FIX + " (Java " + OLDEST_SUPPORTED_MAJOR + " to " + NEWEST_SUPPORTED_MAJOR + " are accepted)");
        }
        Path java = javaHome.resolve("bin").resolve("java");
        if (!Files.isExecutable(java)) {
            throw new EmbeddedHBaseException(javaHome + " has no executable bin/java: " + FIX);
        }
        return java;
    }

    /** The JAVA_VERSION of the installation's {@code release} file, e.g. {@code 17.0.15} or {@code 1.8.0_392}. */
    private static String releaseVersion(Path javaHome) {
        Path release = javaHome.resolve("release");
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(release)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot tell the Java version of " + javaHome + " (no readable "
                    + release + "): " + FIX, e);
        }
        String quoted = properties.getProperty("JAVA_VERSION");
        if (quoted == null) {
            throw new EmbeddedHBaseException(release + " names no JAVA_VERSION: " + FIX);
        }
        return quoted.replace("\"", "").trim();
    }

    static int majorVersion(String version) {
        String[] parts = version.split("[.+_-]");
        String major = parts[0].equals("1") && parts.length > 1 ? parts[1] : parts[0];
        try {
            return Integer.parseInt(major);
        } catch (NumberFormatException e) {
            throw new EmbeddedHBaseException("Cannot read the Java version \"" + version + "\": " + FIX, e);
        }
    }
}
