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
 * key scope shares them across both); Shiro's native sessions are another, Spring Session's a third unless
 * an application shares them with the containers on purpose ({@link #SPRING_SESSION_WITH_CONTAINERS}).
 */
public enum Container {
    TOMCAT(List.of("org.apache.catalina.", "org.apache.tomcat."), Container.SERVLET_SESSIONS, false),
    JETTY(List.of("org.eclipse.jetty."), Container.SERVLET_SESSIONS, false),
    /**
     * Apache Shiro's native sessions. Shiro's own attributes stay visible to the containers: an application
     * on container sessions keeps them there too, and indexes its user by them.
     */
    SHIRO(List.of(), "shiro", false),
    /**
     * Spring Session's sessions (the {@code spring-session-hbase} repository), a session system of their own as Shiro's
     * are: inside one application, a container store installed server-wide and Spring Session's filter never take
     * over each other's rows, whatever cookie names they use. Its stores keep each session's id, sealed, in its user
     * index entry, for {@code findByPrincipalName}.
     */
    SPRING_SESSION(List.of(), "spring-session", true),
    /**
     * Spring Session's sessions shared on purpose with the servlet containers' sessions of the same key scope (an
     * application on Tomcat or Jetty and a Spring Session one that set one {@code keyScope}): the containers' session
     * system, so each reads the other's sessions. A container store of that key scope must then not serve the Spring
     * Session application itself, or both would take the same rows for their own.
     */
    SPRING_SESSION_WITH_CONTAINERS(List.of(), Container.SERVLET_SESSIONS, true),
    /** A user of the store that is no container (a command-line tool): it sees every attribute and every system's rows. */
    NONE(List.of(), null, false);

    private static final String SERVLET_SESSIONS = "servlet";

    private static final Container[] ALL = values();

    private final List<String> internalPrefixes;
    private final Optional<String> sessionSystem;
    private final boolean keepsIdsInUserIndex;

    Container(List<String> internalPrefixes, String sessionSystem, boolean keepsIdsInUserIndex) {
        this.internalPrefixes = internalPrefixes;
        this.sessionSystem = Optional.ofNullable(sessionSystem);
        this.keepsIdsInUserIndex = keepsIdsInUserIndex;
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

    /** Whether this container's stores keep each session's id, sealed, in its user index entry ({@link IndexEntries}). */
    boolean keepsIdsInUserIndex() {
        return keepsIdsInUserIndex;
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
