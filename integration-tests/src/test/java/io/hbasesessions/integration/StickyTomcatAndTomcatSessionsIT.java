package io.hbasesessions.integration;

/** {@link AbstractStickyTwoNodeSessionsIT} on Tomcat 10.1 and Tomcat 11, jvmRoutes t10 and t11. */
class StickyTomcatAndTomcatSessionsIT extends AbstractStickyTwoNodeSessionsIT {

    @Override
    String firstNodeName() {
        return SharedNodes.STICKY_TOMCAT_10;
    }

    @Override
    String secondNodeName() {
        return SharedNodes.STICKY_TOMCAT_11;
    }
}
