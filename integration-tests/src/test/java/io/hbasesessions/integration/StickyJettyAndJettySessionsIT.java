package io.hbasesessions.integration;

/** {@link AbstractStickyTwoNodeSessionsIT} on two Jetty 12.1 nodes, worker names node0 and node1. */
class StickyJettyAndJettySessionsIT extends AbstractStickyTwoNodeSessionsIT {

    @Override
    String firstNodeName() {
        return SharedNodes.STICKY_JETTY_A;
    }

    @Override
    String secondNodeName() {
        return SharedNodes.STICKY_JETTY_B;
    }
}
