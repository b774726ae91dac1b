package io.hbasesessions.integration;

/** {@link AbstractTwoNodeSessionsIT} on Tomcat 10.1 and Tomcat 11, each with its own jvmRoute. */
class TomcatAndTomcatSessionsIT extends AbstractTwoNodeSessionsIT {

    @Override
    String firstNodeName() {
        return SharedNodes.TOMCAT_10;
    }

    @Override
    String secondNodeName() {
        return SharedNodes.TOMCAT_11;
    }
}
