package io.hbasesessions.spring.session;

import io.hbasesessions.store.Container;

/**
 * Which sessions a Spring Session application's rows are: its own, or the servlet containers' of the same key scope.
 * Every row names the session system that wrote it, and a store of another system sees no session there (it does not
 * read, end, overwrite or sweep it), whatever ids and cookie names the applications use.
 */
public enum SessionSystem {

    /**
     * Spring Session's own (the default): a container store installed server-wide (Tomcat's {@code context.xml}, the
     * Jetty module) in front of the same application, with the same key scope and cookie name, never takes Spring
     * Session's rows for its own sessions, nor the other way round, as with Shiro's native sessions.
     */
    SPRING_SESSION(Container.SPRING_SESSION),
    /**
     * The servlet containers' sessions: for applications that share a {@code keyScope} on purpose with a Tomcat or
     * Jetty application on this store (the same cookie name too), so that a session either writes the other reads.
     * No container store of that key scope may then serve the Spring Session application itself.
     */
    SHARED_WITH_CONTAINERS(Container.SPRING_SESSION_WITH_CONTAINERS);

    private final Container container;

    SessionSystem(Container container) {
        this.container = container;
    }

    Container container() {
        return container;
    }
}
