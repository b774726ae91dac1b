package io.hbasesessions.testing;

import java.net.URI;

/**
 * One node of a Spring sample as {@link AbstractSpringSessionSampleIT} reaches it, wherever the sample runs: a Boot
 * application JVM of its own ({@link BootApplicationNode}) or a WAR deployed to a container.
 */
public interface SampleNode {

    /** {@code path}, from the application's root ({@code /account}), on this node. */
    URI url(String path);

    void stop() throws InterruptedException;
}
