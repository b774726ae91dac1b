package io.hbasesessions.spring.session;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.session.MapSession;
import org.springframework.session.SaveMode;

/**
 * Keeps a Spring WebFlux application's {@code WebSession}s in HBase: Spring Session's {@code webSessionManager} over a
 * {@link ReactiveHBaseIndexedSessionRepository} with the store's settings from the {@code hbase.sessions.*}
 * properties, the same ones, bound by the same rules, as the Spring Boot starter's. The key scope defaults to
 * {@code spring.webflux.base-path} (else {@code /}). Put it on a {@code @Configuration} class:
 *
 * <pre>{@code
 * @Configuration
 * @EnableHBaseWebSession
 * class SessionConfig {
 * }
 * }</pre>
 *
 * A session is written when Spring Session saves it (at the end of the request, or when the application calls
 * {@code WebSession.save()}); there is no flush mode: writing at every change would block.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Documented
@Configuration(proxyBeanMethods = false)
@Import(HBaseWebSessionConfiguration.class)
public @interface EnableHBaseWebSession {

    /** The maximum inactive interval of new sessions, in seconds; zero or less: they never idle out. */
    int maxInactiveIntervalInSeconds() default MapSession.DEFAULT_MAX_INACTIVE_INTERVAL_SECONDS;

    /** {@code ON_SET_ATTRIBUTE} or {@code ON_GET_ATTRIBUTE}, which mean the same on this store; {@code ALWAYS} is refused. */
    SaveMode saveMode() default SaveMode.ON_SET_ATTRIBUTE;

    /** Spring Session's own rows (the default), or the servlet containers' of the same key scope, shared on purpose. */
    SessionSystem sessionSystem() default SessionSystem.SPRING_SESSION;
}
