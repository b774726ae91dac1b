package io.hbasesessions.benchmarks.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One container with one session store, as a node to start: {@code storeKey} is the node's
 * {@code store=} argument, {@code label} what the report calls it. The baseline of each container is
 * its in-memory default: every other candidate of that container is reported as a ratio to it.
 */
public record Candidate(String container, String storeKey, String label, boolean baseline, boolean countsHBaseWrites,
        String mainClass, String classpathResource, List<String> extraArguments) {

    static final String TOMCAT = "Tomcat 10.1";
    static final String JETTY = "Jetty 12.1";

    public static Candidate tomcat(String storeKey, String label, boolean baseline, List<String> extraArguments) {
        return new Candidate(TOMCAT, storeKey, label, baseline, storeKey.equals("hbase"),
                "io.hbasesessions.benchmarks.tomcat.TomcatNode", "io/hbasesessions/benchmarks/tomcat/node.classpath",
                extraArguments);
    }

    public static Candidate jetty(String storeKey, String label, boolean baseline, List<String> extraArguments) {
        return new Candidate(JETTY, storeKey, label, baseline, storeKey.equals("hbase"),
                "io.hbasesessions.benchmarks.jetty.JettyNode", "io/hbasesessions/benchmarks/jetty/node.classpath",
                extraArguments);
    }

    /** {@code tomcat-hbase}, {@code jetty-memory}...: names the node's log and work directory. */
    public String name() {
        return container.split(" ")[0].toLowerCase(Locale.ROOT) + "-" + storeKey;
    }

    List<String> arguments() {
        List<String> arguments = new ArrayList<>();
        arguments.add("store=" + storeKey);
        arguments.addAll(extraArguments);
        return arguments;
    }
}
