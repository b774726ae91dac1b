package io.hbasesessions.tomcat;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.contract.AbstractAdapterContractTest;
import io.hbasesessions.testing.contract.AdapterNode;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adapter contract on Tomcat 10.1 and 11 (the module's two test runs): {@link HBaseSessionManager} on
 * an embedded Tomcat serving the test WAR. Tomcat's own {@code PersistentManager} over {@link HBaseStore}
 * is a second way in that only Tomcat has: its case is here.
 */
class TomcatAdapterContractTest extends AbstractAdapterContractTest {

    @TempDir
    Path directory;

    @Override
    protected AdapterNode startNode(String route, Map<String, String> settings) {
        return new TomcatNode(route, directory, () -> {
            HBaseSessionManager manager = new HBaseSessionManager();
            settings.forEach(manager::setProperty);
            return manager;
        }).start();
    }

    /** Tomcat's session id carries the jvmRoute. */
    @Override
    protected String idTheApplicationSees(String id, String route) {
        return id + "." + route;
    }

    /** Issue #11 item 4 through {@code PersistentManager}, which stores its sessions when it stops. */
    @Test
    void aLoginThroughPersistentManagerStoresNoPassword(EmbeddedHBase hbase, TestNamespace namespace,
            Configuration client) {
        try (TomcatNode node = new TomcatNode("n", directory, () -> TestManagers.persistentManager(hbase, namespace))
                .start()) {
            logIn(node);
            node.stop();
        }
        assertNoPasswordStored(namespace, client);
    }
}
