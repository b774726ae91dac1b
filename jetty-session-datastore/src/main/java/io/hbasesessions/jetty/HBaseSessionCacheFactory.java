package io.hbasesessions.jetty;

import org.eclipse.jetty.session.NullSessionCacheFactory;
import org.eclipse.jetty.session.SessionCache;
import org.eclipse.jetty.session.SessionManager;

/**
 * The session cache HBase sessions need on Jetty: none. Every request reads its own copy of its
 * session from the store, as on Tomcat, because another node may have changed the session since this
 * node last held it, even while an earlier request of the same session is still running here; the
 * store merges concurrent changes per attribute, or serialises them in pessimistic mode. Add it to the
 * {@code Server} next to {@link HBaseSessionDataStoreFactory} (the {@code session-store-hbase} module
 * does).
 *
 * <p>Jetty's own save at response commit stays off: {@link HBaseSessionDataStore} saves before the
 * commit by every path, and answers with the store's failure if that save fails.
 */
public class HBaseSessionCacheFactory extends NullSessionCacheFactory {

    public HBaseSessionCacheFactory() {
        setFlushOnResponseCommit(false);
        setSaveOnCreate(false);
        // A session that cannot be read now (HBase down, a class missing on this node) is still someone's.
        setRemoveUnloadableSessions(false);
    }

    @Override
    public SessionCache newSessionCache(SessionManager manager) {
        return new HBaseSessionCache(manager);
    }
}
