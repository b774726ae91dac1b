package io.hbasesessions.integration;

/** {@link AbstractTomcatDistributionIT} on Tomcat 10.1 ({@code org.apache.tomcat:tomcat:10.1.x:tar.gz}). */
class Tomcat10DistributionIT extends AbstractTomcatDistributionIT {

    @Override
    String versionProperty() {
        return "tomcat10.dist.version";
    }
}
