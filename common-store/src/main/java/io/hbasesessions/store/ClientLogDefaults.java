package io.hbasesessions.store;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Quiet defaults for log lines of HBase's client that tell an operator of this store nothing: about twenty
 * lines of ZooKeeper client environment and connection chatter at INFO for every connection, and a warning
 * with a stack trace that the client cannot use {@code java.nio.Bits#unaligned()} (the JVM option
 * {@code --add-opens java.base/java.nio=ALL-UNNAMED} removes its cause). They apply where the client logs
 * through {@code java.util.logging} (the drop-ins send its SLF4J there), and only to a logger whose level
 * nobody configured: a logging configuration that names one wins.
 */
final class ClientLogDefaults {

    private static final Map<String, Level> QUIET = Map.of(
            "org.apache.hadoop.hbase.shaded.org.apache.zookeeper", Level.WARNING,
            "org.apache.hadoop.hbase.unsafe.HBasePlatformDependent", Level.SEVERE);
    /** java.util.logging keeps loggers weakly: a level set on a logger it let go would be lost. */
    private static final List<Logger> KEPT = new ArrayList<>();

    private ClientLogDefaults() {
    }

    /**
     * Sets the quiet levels, once per logging context: call it on the thread that sets up the client, whose
     * context class loader is this library's (a container keeps a logging context per class loader).
     */
    static synchronized void apply() {
        QUIET.forEach((name, level) -> {
            Logger logger = Logger.getLogger(name);
            if (logger.getLevel() == null) {
                logger.setLevel(level);
                KEPT.add(logger);
            }
        });
    }
}
