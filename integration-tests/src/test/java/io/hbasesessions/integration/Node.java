package io.hbasesessions.integration;

import java.net.URI;

/** The test WAR's {@code /session} servlet on one node, named by its container in failure messages. */
record Node(String container, URI servlet) {

    @Override
    public String toString() {
        return container;
    }
}
