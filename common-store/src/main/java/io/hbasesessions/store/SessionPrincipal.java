package io.hbasesessions.store;

import java.util.List;
import java.util.Objects;

/**
 * A container login as the store keeps it: the user's name, roles and how they logged in, never a
 * password. Each adapter rebuilds its own container's principal from it, so a user logged in on a
 * Tomcat node is logged in on a Jetty node of the same key scope too.
 *
 * @param authType the servlet authentication type ({@code FORM}, {@code BASIC}, ...), or null
 */
public record SessionPrincipal(String name, List<String> roles, String authType) {

    public SessionPrincipal {
        Objects.requireNonNull(name, "name");
        roles = List.copyOf(roles);
    }
}
