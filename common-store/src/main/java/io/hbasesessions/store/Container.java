package io.hbasesessions.store;

import java.util.List;

/**
 * The container an adapter serves. Each container keeps some attributes of its own in a session
 * (Jetty's FORM login keeps the page to return to, for example); a web application on another
 * container must not see them, and they must survive its writes. The store hides them by name.
 */
public enum Container {
    TOMCAT(List.of("org.apache.catalina.", "org.apache.tomcat.")),
    JETTY(List.of("org.eclipse.jetty.")),
    /**
     * Apache Shiro's native sessions. Shiro's own attributes stay visible to the containers: an application
     * on container sessions keeps them there too, and indexes its user by them.
     */
    SHIRO(List.of()),
    /** A user of the store that is no container (a command-line tool): it sees every attribute. */
    NONE(List.of());

    private static final Container[] ALL = values();

    private final List<String> internalPrefixes;

    Container(List<String> internalPrefixes) {
        this.internalPrefixes = internalPrefixes;
    }

    /** Whether {@code attributeName} belongs to another container and is hidden from this one's web applications. */
    boolean hides(String attributeName) {
        if (this == NONE) {
            return false;
        }
        for (Container other : ALL) {
            if (other != this && other.owns(attributeName)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code attributeName} is one this container keeps for itself; asked for every attribute a request reads. */
    boolean owns(String attributeName) {
        for (String prefix : internalPrefixes) {
            if (attributeName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
