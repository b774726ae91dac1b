package io.hbasesessions.integration;

import io.hbasesessions.embedded.LocalHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.NodeProcess;
import io.hbasesessions.testing.NodeProgram;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The nodes of one test class: the test WAR at {@code /app} on the node programs, each a JVM of its
 * own on a free port, with the users {@code alice} and {@code bob} (password {@value #PASSWORD}, role
 * {@value #ROLE}). Their logs and work directories are in {@code target/nodes/<group>/}, cleared when
 * the group is made.
 */
final class TestNodes {

    static final String PASSWORD = "demo";
    static final String ROLE = "shopper";
    /** The context path; without a {@code keyScope} setting, also the key scope, on Tomcat and Jetty alike. */
    static final String CONTEXT_PATH = "/app";
    static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final Path directory;
    private final List<NodeProcess> started = new ArrayList<>();

    TestNodes(String group) {
        directory = Path.of("target", "nodes", group).toAbsolutePath();
        try {
            FileTrees.deleteRecursively(directory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The settings by configuration name: this test's tables in {@code hbase}, one region each (the expiry
     * index too, though only nodes with {@code expiryEvents=true} use it).
     */
    static Map<String, String> storeSettings(LocalHBase hbase, TestNamespace namespace, String keyScope) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        settings.put("keyScope", keyScope);
        settings.put("table", namespace.table("sessions"));
        settings.put("indexTable", namespace.table("user_sessions"));
        settings.put("expiryTable", namespace.table("session_expiry"));
        settings.put("regions", "1");
        return settings;
    }

    /**
     * The settings by configuration name: tables of their own named {@code <prefix>_sessions},
     * {@code <prefix>_user_sessions} and {@code <prefix>_session_expiry} in {@code hbase}, one region each,
     * and the default key scope.
     */
    static Map<String, String> storeSettings(LocalHBase hbase, String tablePrefix) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        settings.put("table", tablePrefix + "_sessions");
        settings.put("indexTable", tablePrefix + "_user_sessions");
        settings.put("expiryTable", tablePrefix + "_session_expiry");
        settings.put("regions", "1");
        return settings;
    }

    /** Writes a new {@code stateKeyFile} holding one random key, as {@code openssl rand -base64 32} makes one. */
    static Path writeStateKey(Path file) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        try {
            Files.createDirectories(file.getParent());
            return Files.writeString(file, Base64.getEncoder().encodeToString(key) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The store's own view of the nodes' tables: where they keep the sessions. */
    static StoredSessions inspector(Map<String, String> settings) {
        return new StoredSessions(settings);
    }

    /** A node named {@code name} (its log and work directory), not started yet. */
    NodeProcess.Builder node(NodeProgram program, String name) {
        return NodeProcess.builder(program)
                .war(testWar())
                .contextPath(CONTEXT_PATH)
                .user("alice", PASSWORD, ROLE)
                .user("bob", PASSWORD, ROLE)
                .workDirectory(directory.resolve(name))
                .log(directory.resolve(name + ".log"));
    }

    /** Starts the node; {@link #awaitReady} waits for it. */
    NodeProcess start(NodeProcess.Builder node) {
        NodeProcess process = node.start();
        started.add(process);
        return process;
    }

    NodeProcess start(NodeProgram program, String name, Map<String, String> storeSettings) {
        return start(node(program, name).storeSettings(storeSettings));
    }

    /** Waits until every node started so far serves. */
    void awaitReady() throws InterruptedException {
        for (NodeProcess node : started) {
            node.awaitReady(START_TIMEOUT);
        }
    }

    /** Stops every node started so far, all at once. */
    void stopAll() {
        started.parallelStream().forEach(NodeProcess::stop);
    }

    /** The log files of every node started so far. */
    List<Path> logs() {
        return started.stream().map(NodeProcess::log).toList();
    }

    /** Where this group's logs and work directories are. */
    Path directory() {
        return directory;
    }

    private static Path testWar() {
        Path war = Path.of(System.getProperty("test.war", "(the test.war system property is not set)"));
        if (!Files.isRegularFile(war)) {
            throw new IllegalStateException("The test WAR " + war + " is missing: build test-webapp first");
        }
        return war;
    }
}
