package io.hbasesessions.store;

import java.util.List;
import java.util.Optional;

/**
 * The container an adapter serves. Each container keeps some attributes of its own in a session
 * (Jetty's FORM login keeps the page to return to, for example); a web application on another
 * container must not see them, and they must survive its writes. The store hides them by name.
 * What a container keeps outside the attributes (Tomcat's session notes) travels as notes of
 * {@link SessionAttributes}, which no web application sees.
 *
 * <p>Each container also belongs to a session system, stamped on every row its stores write: a row
 * another system wrote is no session to it, so it neither reads, ends nor overwrites it, whatever ids or
 * cookie names the applications use. Tomcat and Jetty are one system (servlet container sessions: one
 * key scope shares them across both); Shiro's native sessions are another.
 */
public enum Container {
    TOMCAT(List.of("org.apache.catalina.", "org.apache.tomcat."), Container.SERVLET_SESSIONS),
    JETTY(List.of("org.eclipse.jetty."), Container.SERVLET_SESSIONS),
    /**
     * Apache Shiro's native sessions. Shiro's own attributes stay visible to the containers: an application
     * on container sessions keeps them there too, and indexes its user by them.
     */
    SHIRO(List.of(), "shiro"),
    /** A user of the store that is no container (a command-line tool): it sees every attribute and every system's rows. */
    NONE(List.of(), null);

    private static final String SERVLET_SESSIONS = "servlet";

    private static final Container[] ALL = values();

    private final List<String> internalPrefixes;
    private final Optional<String> sessionSystem;

    Container(List<String> internalPrefixes, String sessionSystem) {
        this.internalPrefixes = internalPrefixes;
        this.sessionSystem = Optional.ofNullable(sessionSystem);
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

    /** The session system this container's stores stamp on the rows they write; empty for {@link #NONE}. */
    Optional<String> sessionSystem() {
        return sessionSystem;
    }

    /**
     * Whether a row stamped with {@code rowSystem} is a session for this container: one of its own system, or
     * one written before rows were stamped (empty), which the first write of any system stamps.
     */
    boolean sees(Optional<String> rowSystem) {
        return sessionSystem.isEmpty() || rowSystem.isEmpty() || rowSystem.equals(sessionSystem);
    }
}
