package io.hbasesessions.tomcat;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import org.apache.catalina.session.PersistentManager;

/** Managers and stores configured for a test HBase: the test class's own tables, small and quick to create. */
final class TestManagers {

    private TestManagers() {
    }

    static String quorum(EmbeddedHBase hbase) {
        return hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
    }

    static HBaseSessionManager manager(EmbeddedHBase hbase, TestNamespace namespace) {
        HBaseSessionManager manager = new HBaseSessionManager();
        manager.setProperty("zookeeperQuorum", quorum(hbase));
        manager.setProperty("table", namespace.table("sessions"));
        manager.setProperty("indexTable", namespace.table("user_sessions"));
        manager.setProperty("regions", "2");
        return manager;
    }

    static HBaseStore store(EmbeddedHBase hbase, TestNamespace namespace) {
        HBaseStore store = new HBaseStore();
        store.setProperty("zookeeperQuorum", quorum(hbase));
        store.setProperty("table", namespace.table("persistent_sessions"));
        store.setProperty("indexTable", namespace.table("persistent_user_sessions"));
        store.setProperty("regions", "2");
        return store;
    }

    /** Tomcat's own {@code PersistentManager} over {@link #store}. */
    static PersistentManager persistentManager(EmbeddedHBase hbase, TestNamespace namespace) {
        PersistentManager manager = new PersistentManager();
        manager.setStore(store(hbase, namespace));
        return manager;
    }
}
