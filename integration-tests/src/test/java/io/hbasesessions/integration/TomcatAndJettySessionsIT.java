package io.hbasesessions.integration;

/** {@link AbstractTwoNodeSessionsIT} on Tomcat 10.1 and Jetty 12.1: one application on both containers, sharing sessions by the default key scope. */
class TomcatAndJettySessionsIT extends AbstractTwoNodeSessionsIT {

    @Override
    String firstNodeName() {
        return SharedNodes.TOMCAT_10;
    }

    @Override
    String secondNodeName() {
        return SharedNodes.JETTY_A;
    }
}
