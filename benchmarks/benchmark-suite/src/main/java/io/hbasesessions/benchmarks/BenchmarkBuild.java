package io.hbasesessions.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * What the build wrote into {@code benchmark-build.properties}: the packaged benchmark WAR, and the versions
 * of what the suite runs (for its report). The parts that start nodes read the WAR's path here, not from the
 * suite that runs them.
 */
public final class BenchmarkBuild {

    private static final Properties BUILD = buildProperties();

    private BenchmarkBuild() {
    }

    /**
     * The packaged WAR. A build that stops before the package phase ({@code mvn test}) resolves the
     * webapp module to its classes directory instead, which no container can serve.
     */
    public static Path benchmarkWar() {
        Path war = Path.of(BUILD.getProperty("benchmark.war"));
        if (!Files.isRegularFile(war)) {
            throw new IllegalStateException(war + " is not the packaged benchmark WAR: build with mvn package "
                    + "(or verify), which packages benchmarks/benchmark-webapp before the suite");
        }
        return war;
    }

    /** The version of {@code name} the suite was built with ({@code hbase}, {@code tomcat}, {@code redisson}...). */
    static String version(String name) {
        return BUILD.getProperty(name + ".version");
    }

    private static Properties buildProperties() {
        Properties properties = new Properties();
        try (InputStream in = BenchmarkBuild.class.getResourceAsStream("benchmark-build.properties")) {
            properties.load(in);
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("benchmark-build.properties is missing: build the suite with Maven", e);
        }
        return properties;
    }
}
