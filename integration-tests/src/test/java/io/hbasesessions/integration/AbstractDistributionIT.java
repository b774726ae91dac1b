package io.hbasesessions.integration;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two nodes of one container distribution (A and B), installed as docs/install.md says with one state key file copied
 * to each, sharing the test HBase. The checks of a subclass share the two running servers, in their order, and
 * make sessions of their own.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractDistributionIT<S extends InstalledServer> {

    EmbeddedHBase hbase;
    Configuration client;
    /** The key file every node has a copy of. */
    Path stateKeys;
    S nodeA;
    S nodeB;

    /** Installs node {@code name}, as docs/install.md says and with what the test adds, without starting it. */
    abstract S install(String name, String zookeeperQuorum) throws IOException, InterruptedException;

    @BeforeAll
    void installTwoNodesAsReadmeSays(EmbeddedHBase server, Configuration clientConfiguration) throws Exception {
        hbase = server;
        client = clientConfiguration;
        String quorum = hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort();
        // The openssl command of docs/install.md writes the same: the base64 of 32 random bytes; every node gets a copy.
        stateKeys = TestNodes.writeStateKey(Path.of("target", "it", getClass().getSimpleName() + "-state-keys").toAbsolutePath());
        nodeA = install("a", quorum);
        nodeA.start("a-first-run.log");
        nodeB = install("b", quorum);
        nodeB.start("b-first-run.log");
    }

    @AfterAll
    void stopBothNodes() {
        for (InstalledServer node : Arrays.asList(nodeA, nodeB)) {
            if (node != null) {
                node.stop();
            }
        }
    }

    /** The adapter contract's no-password rule over HTTP: no cell of the default tables holds {@code secret}. */
    void assertStoredNowhere(String secret, String what) {
        StoredSessions.assertStoredNowhere(client, secret, what);
    }
}
