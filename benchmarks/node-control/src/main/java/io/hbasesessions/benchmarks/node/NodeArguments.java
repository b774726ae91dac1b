package io.hbasesessions.benchmarks.node;

import java.util.LinkedHashMap;
import java.util.Map;

/** A node's command line: {@code name=value} pairs, as the driver writes them. */
public final class NodeArguments {

    /** Which session manager or store the node runs: {@code standard}, {@code hbase}, {@code redisson}, ... */
    public static final String STORE = "store";
    /** Path of the benchmark WAR. */
    public static final String WAR = "war";
    /** A directory the container may write to (Tomcat's base directory). */
    public static final String WORK_DIRECTORY = "workDirectory";
    public static final String ZOOKEEPER_QUORUM = "zookeeperQuorum";
    public static final String TABLE = "table";
    public static final String INDEX_TABLE = "indexTable";
    /** Redisson's YAML configuration file. */
    public static final String REDISSON_CONFIG = "redissonConfig";
    /** {@code jdbc:postgresql://...} with user and password as URL parameters. */
    public static final String JDBC_URL = "jdbcUrl";

    private final Map<String, String> values;

    private NodeArguments(Map<String, String> values) {
        this.values = values;
    }

    public static NodeArguments parse(String[] args) {
        Map<String, String> values = new LinkedHashMap<>();
        for (String arg : args) {
            int equals = arg.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("Arguments are name=value pairs, not: " + arg);
            }
            values.put(arg.substring(0, equals), arg.substring(equals + 1));
        }
        return new NodeArguments(values);
    }

    public String require(String name) {
        String value = values.get(name);
        if (value == null) {
            throw new IllegalArgumentException("Missing argument " + name + "=...");
        }
        return value;
    }
}
