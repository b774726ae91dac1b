package io.hbasesessions.spring.session;

import io.hbasesessions.spring.boot.SessionStoreProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Import;
import org.springframework.session.ReactiveSessionRepository;

/**
 * {@link HBaseSessionAutoConfiguration}'s twin for a reactive (WebFlux) application: with spring-session-hbase on the
 * classpath and no {@code ReactiveSessionRepository} of the application's own, its {@code WebSession}s are Spring
 * Session's in HBase, as {@link EnableHBaseWebSession} with its defaults would keep them (the idle timeout is
 * {@code spring.session.timeout}, else {@code server.reactive.session.timeout}). Boot tells a reactive application from
 * a servlet one; each of the two auto-configurations serves one kind. It runs before Boot's session and WebFlux
 * auto-configurations, so that its {@code webSessionManager} is the one; {@code hbase.sessions.enabled=false} turns it
 * off. The starter's auto-configuration serves servlet applications only, so it never runs beside this one.
 */
@AutoConfiguration(beforeName = {"org.springframework.boot.autoconfigure.session.SessionAutoConfiguration",
        "org.springframework.boot.session.autoconfigure.SessionAutoConfiguration",
        "org.springframework.boot.autoconfigure.web.reactive.WebFluxAutoConfiguration",
        "org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration",
        "org.springframework.boot.autoconfigure.web.reactive.HttpHandlerAutoConfiguration",
        "org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
@ConditionalOnMissingBean(ReactiveSessionRepository.class)
@ConditionalOnProperty(prefix = SessionStoreProperties.PREFIX, name = "enabled", havingValue = "true", matchIfMissing = true)
@Import(HBaseWebSessionConfiguration.class)
public class HBaseWebSessionAutoConfiguration {
}
