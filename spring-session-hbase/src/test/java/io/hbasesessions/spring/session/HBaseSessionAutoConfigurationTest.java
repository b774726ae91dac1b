package io.hbasesessions.spring.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.spring.boot.HBaseSessionsAutoConfiguration;
import io.hbasesessions.spring.boot.SessionStoreProperties;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.session.SessionAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.session.MapSessionRepository;
import org.springframework.session.SessionRepository;
import org.springframework.session.web.http.SessionRepositoryFilter;

/**
 * Boot chooses Spring Session's store by what is on the classpath: with spring-session-hbase there, the application's
 * sessions are Spring Session's in HBase, with Boot's session timeout; the starter's auto-configuration stays off;
 * {@code hbase.sessions.enabled=false} or a repository of the application's own turns it off.
 */
@ExtendWith(HBaseExtension.class)
class HBaseSessionAutoConfigurationTest {

    private WebApplicationContextRunner runner;

    @BeforeEach
    void properties(EmbeddedHBase server, TestNamespace namespace) {
        runner = new WebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(HBaseSessionAutoConfiguration.class,
                        HBaseSessionsAutoConfiguration.class, SessionAutoConfiguration.class))
                .withPropertyValues(HBaseProperties.of(server, namespace));
    }

    @Test
    void onTheClasspathItKeepsTheSessionsWithBootsTimeoutAndTheStarterStaysOff() {
        runner.withPropertyValues("server.servlet.session.timeout=5m").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(HBaseIndexedSessionRepository.class)
                    .hasSingleBean(SessionRepositoryFilter.class).doesNotHaveBean(SessionStoreProperties.class);
            HBaseIndexedSessionRepository repository = context.getBean(HBaseIndexedSessionRepository.class);
            assertThat(repository.createSession().getMaxInactiveInterval()).isEqualTo(Duration.ofMinutes(5));
        });
        runner.withPropertyValues("server.servlet.session.timeout=5m", "spring.session.timeout=7m").run(context ->
                assertThat(context.getBean(HBaseIndexedSessionRepository.class).createSession().getMaxInactiveInterval())
                        .isEqualTo(Duration.ofMinutes(7)));
    }

    @Test
    void disabledNeitherItNorTheStarterIsOn() {
        runner.withPropertyValues(SessionStoreProperties.ENABLED + "=false").run(context -> assertThat(context)
                .hasNotFailed().doesNotHaveBean(HBaseIndexedSessionRepository.class)
                .doesNotHaveBean(SessionStoreProperties.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRepository {
        @Bean
        SessionRepository<?> sessionRepository() {
            return new MapSessionRepository(new java.util.concurrent.ConcurrentHashMap<>());
        }
    }

    @Test
    void anApplicationsOwnRepositoryTakesItsPlace() {
        runner.withUserConfiguration(OwnRepository.class).run(context -> assertThat(context).hasNotFailed()
                .doesNotHaveBean(HBaseIndexedSessionRepository.class));
    }
}
