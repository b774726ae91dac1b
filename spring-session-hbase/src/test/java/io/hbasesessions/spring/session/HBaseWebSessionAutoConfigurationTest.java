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
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.ResponseCookie;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.session.SaveMode;
import org.springframework.web.server.WebSession;
import org.springframework.web.server.session.WebSessionManager;

/**
 * A WebFlux application: with spring-session-hbase on the classpath its {@code WebSession}s are Spring Session's in
 * HBase (a session one exchange made is the next one's, by its cookie), with Boot's reactive session timeout and the
 * {@code hbase.sessions.*} properties; a servlet application gets the servlet repository instead, never both;
 * {@code @EnableHBaseWebSession}'s attributes apply; {@code hbase.sessions.enabled=false} turns it off.
 */
@ExtendWith(HBaseExtension.class)
class HBaseWebSessionAutoConfigurationTest {

    private static final AutoConfigurations ALL = AutoConfigurations.of(HBaseWebSessionAutoConfiguration.class,
            HBaseSessionAutoConfiguration.class, HBaseSessionsAutoConfiguration.class, SessionAutoConfiguration.class);

    private String[] properties;

    @BeforeEach
    void properties(EmbeddedHBase server, TestNamespace namespace) {
        properties = HBaseProperties.of(server, namespace);
    }

    @Test
    void aReactiveApplicationKeepsItsWebSessionsInHBaseWithBootsTimeoutAndTheBasePathAsKeyScope() {
        new ReactiveWebApplicationContextRunner().withConfiguration(ALL).withPropertyValues(properties)
                .withPropertyValues("server.reactive.session.timeout=5m", "spring.webflux.base-path=/shop")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ReactiveHBaseIndexedSessionRepository.class)
                            .doesNotHaveBean(HBaseIndexedSessionRepository.class)
                            .doesNotHaveBean(SessionStoreProperties.class);
                    ReactiveHBaseIndexedSessionRepository repository =
                            context.getBean(ReactiveHBaseIndexedSessionRepository.class);
                    assertThat(repository.store().keyScope()).isEqualTo("/shop");
                    assertThat(repository.createSession().block().getMaxInactiveInterval())
                            .isEqualTo(Duration.ofMinutes(5));

                    WebSessionManager manager = context.getBean("webSessionManager", WebSessionManager.class);
                    MockServerWebExchange first = MockServerWebExchange.from(MockServerHttpRequest.get("/shop/cart"));
                    WebSession made = manager.getSession(first).block();
                    made.getAttributes().put("cart", "pen");
                    first.getResponse().setComplete().block();
                    ResponseCookie cookie = first.getResponse().getCookies().getFirst("SESSION");
                    assertThat(cookie).isNotNull();
                    assertThat(cookie.getValue()).isEqualTo(made.getId());

                    MockServerWebExchange second = MockServerWebExchange.from(MockServerHttpRequest.get("/shop/cart")
                            .cookie(new org.springframework.http.HttpCookie("SESSION", cookie.getValue())));
                    assertThat((String) manager.getSession(second).block().getAttribute("cart")).isEqualTo("pen");
                    assertThat((String) repository.findById(made.getId()).block().getAttribute("cart")).isEqualTo("pen");
                });
    }

    @Test
    void aServletApplicationGetsTheServletRepositoryOnly() {
        new WebApplicationContextRunner().withConfiguration(ALL).withPropertyValues(properties).run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(HBaseIndexedSessionRepository.class)
                        .doesNotHaveBean(ReactiveHBaseIndexedSessionRepository.class));
    }

    @Test
    void disabledItIsOff() {
        new ReactiveWebApplicationContextRunner().withConfiguration(ALL).withPropertyValues(properties)
                .withPropertyValues(SessionStoreProperties.ENABLED + "=false").run(context -> assertThat(context)
                        .hasNotFailed().doesNotHaveBean(ReactiveHBaseIndexedSessionRepository.class));
    }

    @Configuration(proxyBeanMethods = false)
    @EnableHBaseWebSession(maxInactiveIntervalInSeconds = 600, saveMode = SaveMode.ON_GET_ATTRIBUTE)
    static class SessionConfig {
    }

    @Test
    void theAnnotationsAttributesApply() {
        new ReactiveWebApplicationContextRunner().withUserConfiguration(SessionConfig.class).withPropertyValues(properties)
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(ReactiveHBaseIndexedSessionRepository.class)
                            .hasBean("webSessionManager");
                    assertThat(context.getBean(ReactiveHBaseIndexedSessionRepository.class).createSession().block()
                            .getMaxInactiveInterval()).isEqualTo(Duration.ofSeconds(600));
                });
    }
}
