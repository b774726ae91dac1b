package io.hbasesessions.jetty;

import io.hbasesessions.testing.contract.AbstractAdapterContractTest;
import io.hbasesessions.testing.contract.AdapterNode;
import java.util.Map;

/**
 * The adapter contract on Jetty 12.0 and 12.1 (the module's two test runs): {@link HBaseSessionDataStore}
 * behind {@link HBaseSessionCacheFactory}'s cache on an embedded Jetty serving the test WAR.
 */
class JettyAdapterContractTest extends AbstractAdapterContractTest {

    @Override
    protected AdapterNode startNode(String route, Map<String, String> settings) {
        return JettyNode.start(route, settings);
    }

    /** Jetty's {@code getId()} is the cluster id; the worker name is only in the cookie ({@code getExtendedId()}). */
    @Override
    protected String idTheApplicationSees(String id, String route) {
        return id;
    }
}
