package io.hbasesessions.benchmarks.tomcat;

import io.hbasesessions.store.StoreCounters;
import org.springframework.session.Session;
import org.springframework.session.SessionRepository;

/**
 * Where Spring Session keeps the WAR's sessions: a repository opened once the WAR's class loader is known (attribute
 * values are the WAR's classes, and each library deserializes them with the loader of the application that uses it),
 * and closed with everything it opened when the WAR stops.
 */
interface SpringSessionBackend extends AutoCloseable {

    SessionRepository<? extends Session> open(ClassLoader applicationClassLoader);

    /** The HBase store's counters, which the driver turns into HBase writes per request; null for the peers. */
    default StoreCounters hbaseCounters() {
        return null;
    }

    @Override
    void close();
}
