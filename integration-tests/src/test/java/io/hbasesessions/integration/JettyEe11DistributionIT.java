package io.hbasesessions.integration;

/** {@link AbstractJettyDistributionIT} with Jetty's ee11 environment. */
class JettyEe11DistributionIT extends AbstractJettyDistributionIT {

    @Override
    String environment() {
        return "ee11";
    }
}
