package io.hbasesessions.store;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what the store logs. The store logs through {@code System.Logger}, which the JDK routes to
 * java.util.logging when no other backend is installed, as in these tests.
 */
final class LogCapture extends Handler implements AutoCloseable {

    private final Logger logger = Logger.getLogger("io.hbasesessions.store");
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();

    LogCapture() {
        setLevel(Level.ALL);
        logger.addHandler(this);
    }

    /** The formatted messages at WARNING or above. */
    List<String> warnings() {
        return records.stream().filter(r -> r.getLevel().intValue() >= Level.WARNING.intValue())
                .map(r -> new java.util.logging.SimpleFormatter().formatMessage(r)).toList();
    }

    @Override
    public void publish(LogRecord record) {
        records.add(record);
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        logger.removeHandler(this);
    }
}
