package io.hbasesessions.testing.contract;

import io.hbasesessions.store.StoreCounters;
import java.net.URI;

/**
 * One running container of the adapter under test: the test WAR served on 127.0.0.1, its sessions in
 * HBase through the adapter. Closing it stops the container.
 */
public interface AdapterNode extends AutoCloseable {

    /** The test WAR's {@code /session} servlet; its other servlets ({@code scope}, {@code counters}) are siblings. */
    URI servlet();

    /** The activity of the store behind this node's web application. */
    StoreCounters counters();

    @Override
    void close();
}
