package io.hbasesessions.integration;

/** {@link AbstractTwoNodeSessionsIT} on Two Jetty 12.1 nodes, worker names node0 and node1. */
class JettyAndJettySessionsIT extends AbstractTwoNodeSessionsIT {

    @Override
    String firstNodeName() {
        return SharedNodes.JETTY_A;
    }

    @Override
    String secondNodeName() {
        return SharedNodes.JETTY_B;
    }
}
