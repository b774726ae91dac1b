package io.hbasesessions.spring.session;

import io.hbasesessions.spring.boot.SessionStoreProperties;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.context.annotation.Import;
import org.springframework.session.SessionRepository;

/**
 * Spring Boot's way of choosing a Spring Session store: with spring-session-hbase on the classpath of a servlet
 * application that defines no {@code SessionRepository} of its own, Spring Session keeps the sessions in HBase, as
 * {@link EnableHBaseHttpSession} with its defaults would (the idle timeout is Boot's {@code spring.session.timeout},
 * else {@code server.servlet.session.timeout}). It runs before Boot's own session auto-configuration and before the
 * starter's, which then stays off: one of the two keeps the sessions. {@code hbase.sessions.enabled=false} turns both
 * off.
 */
@AutoConfiguration(beforeName = {"org.springframework.boot.autoconfigure.session.SessionAutoConfiguration",
        "org.springframework.boot.session.autoconfigure.SessionAutoConfiguration",
        "io.hbasesessions.spring.boot.HBaseSessionsAutoConfiguration"})
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnMissingBean(SessionRepository.class)
@ConditionalOnProperty(prefix = SessionStoreProperties.PREFIX, name = "enabled", havingValue = "true", matchIfMissing = true)
@Import(HBaseHttpSessionConfiguration.class)
public class HBaseSessionAutoConfiguration {
}
