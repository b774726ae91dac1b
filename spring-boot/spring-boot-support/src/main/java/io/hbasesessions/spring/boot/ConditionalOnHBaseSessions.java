package io.hbasesessions.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;

/**
 * When the starter works: in a servlet web application, unless {@code hbase.sessions.enabled=false} or the
 * application keeps its sessions with Spring Session on HBase instead ({@code @EnableHBaseHttpSession} of
 * spring-session-hbase: its repository is a bean), so that one of the two keeps the sessions, never both.
 * Every auto-configuration of the starter, on either Boot line, is conditional on this one rule.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnProperty(prefix = SessionStoreProperties.PREFIX, name = "enabled", havingValue = "true", matchIfMissing = true)
@ConditionalOnMissingBean(type = ConditionalOnHBaseSessions.SPRING_SESSION_REPOSITORY)
public @interface ConditionalOnHBaseSessions {

    /** The repository of spring-session-hbase, named: this module does not depend on it. */
    String SPRING_SESSION_REPOSITORY = "io.hbasesessions.spring.session.HBaseIndexedSessionRepository";
}
