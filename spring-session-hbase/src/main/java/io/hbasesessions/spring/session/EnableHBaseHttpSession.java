package io.hbasesessions.spring.session;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.session.FlushMode;
import org.springframework.session.MapSession;
import org.springframework.session.SaveMode;

/**
 * Puts Spring Session's {@code SessionRepositoryFilter} (bean {@code springSessionRepositoryFilter}) in front of the
 * application, with the sessions in HBase: an {@link HBaseIndexedSessionRepository} with the store's settings from
 * the {@code hbase.sessions.*} properties, the same ones, bound by the same rules, as the Spring Boot starter's
 * ({@code hbase.sessions.zookeeper-quorum}, {@code hbase.sessions.key-scope}, ...). The key scope defaults to the
 * servlet context path, as the containers' does. Put it on a {@code @Configuration} class:
 *
 * <pre>{@code
 * @Configuration
 * @EnableHBaseHttpSession
 * class SessionConfig {
 * }
 * }</pre>
 *
 * With it, the starter's own auto-configuration (the container's session manager) stays off: one of the two keeps the
 * application's sessions.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Documented
@Configuration(proxyBeanMethods = false)
@Import(HBaseHttpSessionConfiguration.class)
public @interface EnableHBaseHttpSession {

    /** The maximum inactive interval of new sessions, in seconds; zero or less: they never idle out. */
    int maxInactiveIntervalInSeconds() default MapSession.DEFAULT_MAX_INACTIVE_INTERVAL_SECONDS;

    /** When a session is written: when the filter saves it at the end of the request, or at every change. */
    FlushMode flushMode() default FlushMode.ON_SAVE;

    /** {@code ON_SET_ATTRIBUTE} or {@code ON_GET_ATTRIBUTE}, which mean the same on this store; {@code ALWAYS} is refused. */
    SaveMode saveMode() default SaveMode.ON_SET_ATTRIBUTE;

    /** Spring Session's own rows (the default), or the servlet containers' of the same key scope, shared on purpose. */
    SessionSystem sessionSystem() default SessionSystem.SPRING_SESSION;
}
