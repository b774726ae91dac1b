package io.hbasesessions.store;

import java.util.Locale;
import java.util.Optional;

/**
 * The default {@code keyScope}: one function of context path and virtual host, the same in every
 * container, so the same application deployed on Tomcat and on Jetty shares its sessions without
 * configuration. A context served by the container's default host has no virtual host here (Tomcat's
 * {@code localhost}, Jetty's context without virtual hosts).
 */
public final class KeyScopes {

    private KeyScopes() {
    }

    /**
     * {@code /shop}, {@code /} for the root context, {@code /shop@shop.example.com} for a context of a
     * virtual host other than the default one.
     */
    public static String defaultFor(Optional<String> virtualHost, String contextPath) {
        String path = contextPath == null || contextPath.isEmpty() ? "/" : contextPath;
        return virtualHost.filter(host -> !host.isBlank())
                .map(host -> path + "@" + host.toLowerCase(Locale.ROOT))
                .orElse(path);
    }
}
