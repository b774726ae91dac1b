package io.hbasesessions.tomcat;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;

/** Managers and stores configured for a test HBase: the test class's own tables, small and quick to create. */
final class TestManagers {

    private TestManagers() {
    }

    static String quorum(EmbeddedHBase hbase) {
        return hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
    }

    static HBaseSessionManager manager(EmbeddedHBase hbase, TestNamespace namespace) {
        HBaseSessionManager manager = new HBaseSessionManager();
        manager.setZookeeperQuorum(quorum(hbase));
        manager.setTable(namespace.table("sessions"));
        manager.setIndexTable(namespace.table("user_sessions"));
        manager.setRegions("2");
        return manager;
    }

    static HBaseStore store(EmbeddedHBase hbase, TestNamespace namespace) {
        HBaseStore store = new HBaseStore();
        store.setZookeeperQuorum(quorum(hbase));
        store.setTable(namespace.table("persistent_sessions"));
        store.setIndexTable(namespace.table("persistent_user_sessions"));
        store.setRegions("2");
        return store;
    }
}
