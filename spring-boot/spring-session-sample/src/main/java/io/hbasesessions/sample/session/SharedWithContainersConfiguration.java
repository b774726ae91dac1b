package io.hbasesessions.sample.session;

import io.hbasesessions.spring.session.EnableHBaseHttpSession;
import io.hbasesessions.spring.session.SessionSystem;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Profile;

/**
 * With the profile {@code shared-with-containers}, the shop's sessions are the Tomcat and Jetty applications' of the
 * same key scope ({@code hbase.sessions.key-scope}): one user, one session, whichever of them serves the request.
 * Without it they are Spring Session's own, which no container store takes over.
 */
@Configuration
@Profile("shared-with-containers")
@EnableHBaseHttpSession(sessionSystem = SessionSystem.SHARED_WITH_CONTAINERS)
public class SharedWithContainersConfiguration {
}
