package io.hbasesessions.integration;

import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.NodeProcess;
import java.net.URI;

/**
 * One node a test talks to: its process, its container and its route (the suffix it appends to the
 * session ids it issues), named in failure messages by {@link #name}.
 */
final class Node {

    enum Kind { TOMCAT, JETTY }

    private final String name;
    private final Kind kind;
    private final String route;
    private final NodeProcess process;

    Node(String name, Kind kind, String route, NodeProcess process) {
        this.name = name;
        this.kind = kind;
        this.route = route;
        this.process = process;
    }

    String name() {
        return name;
    }

    Kind kind() {
        return kind;
    }

    /** {@code t10} for a Tomcat jvmRoute, {@code node0} for a Jetty worker name. */
    String route() {
        return route;
    }

    NodeProcess process() {
        return process;
    }

    /** The test WAR's {@code /session} servlet. */
    URI session() {
        return resolve("session");
    }

    /** A path of the test WAR on this node: {@code hard}, {@code style}, {@code counters}. */
    URI resolve(String path) {
        return process.url().resolve(path);
    }

    /** The prefix of the attribute names this node's container keeps for itself. */
    String internalAttributePrefix() {
        return kind == Kind.TOMCAT ? "org.apache.catalina." : "org.eclipse.jetty.";
    }

    /** What this node's session store has counted so far (its MBean, read by the WAR in the node's JVM). */
    Counters counters() {
        return new Counters(name, new Browser().get(resolve("counters")).expect(200).values());
    }

    @Override
    public String toString() {
        return name;
    }
}
