package io.hbasesessions.spring.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.spring.boot.HBaseSessionsAutoConfiguration;
import io.hbasesessions.spring.boot.SessionStoreProperties;
import io.hbasesessions.store.StoreConfigurationException;
import jakarta.servlet.Filter;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.context.AnnotationConfigServletWebApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.mock.web.MockFilterChain;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.mock.web.MockServletContext;
import org.springframework.session.FlushMode;
import org.springframework.session.SaveMode;

/**
 * {@code @EnableHBaseHttpSession} in a servlet application: the repository with the {@code hbase.sessions.*}
 * properties the starter binds, Spring Session's filter in front of the requests (a session made by one request is
 * the next one's, by its cookie), and the starter's own auto-configuration off beside it.
 */
@ExtendWith(HBaseExtension.class)
class EnableHBaseHttpSessionTest {

    private WebApplicationContextRunner runner;

    @Configuration(proxyBeanMethods = false)
    @EnableHBaseHttpSession(maxInactiveIntervalInSeconds = 600, flushMode = FlushMode.IMMEDIATE,
            saveMode = SaveMode.ON_GET_ATTRIBUTE)
    static class SessionConfig {
    }

    @BeforeEach
    void properties(EmbeddedHBase server, TestNamespace namespace) {
        runner = new WebApplicationContextRunner().withPropertyValues(HBaseProperties.of(server, namespace));
    }

    @Test
    void theFilterKeepsTheSessionInHBaseWithTheBoundSettingsAndTheStarterStaysOff() {
        runner.withUserConfiguration(SessionConfig.class)
                .withConfiguration(AutoConfigurations.of(HBaseSessionsAutoConfiguration.class))
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(HBaseIndexedSessionRepository.class)
                            .doesNotHaveBean(SessionStoreProperties.class);
                    HBaseIndexedSessionRepository repository = context.getBean(HBaseIndexedSessionRepository.class);
                    assertThat(repository.store().keyScope()).isEqualTo("/");
                    Filter filter = context.getBean("springSessionRepositoryFilter", Filter.class);

                    MockHttpServletResponse first = new MockHttpServletResponse();
                    filter.doFilter(new MockHttpServletRequest("GET", "/cart"), first, new MockFilterChain() {
                        @Override
                        public void doFilter(jakarta.servlet.ServletRequest request, jakarta.servlet.ServletResponse response) {
                            ((HttpServletRequest) request).getSession().setAttribute("cart", "pen");
                        }
                    });
                    Cookie cookie = first.getCookie("SESSION");
                    assertThat(cookie).isNotNull();

                    HBaseSession stored = repository.findById(new String(java.util.Base64.getDecoder()
                            .decode(cookie.getValue()), java.nio.charset.StandardCharsets.UTF_8));
                    assertThat(stored).isNotNull();
                    assertThat((String) stored.getAttribute("cart")).isEqualTo("pen");
                    assertThat(stored.getMaxInactiveInterval()).isEqualTo(Duration.ofSeconds(600));

                    MockHttpServletRequest second = new MockHttpServletRequest("GET", "/cart");
                    second.setCookies(cookie);
                    String[] seen = new String[1];
                    filter.doFilter(second, new MockHttpServletResponse(), new MockFilterChain() {
                        @Override
                        public void doFilter(jakarta.servlet.ServletRequest request, jakarta.servlet.ServletResponse response) {
                            HttpSession session = ((HttpServletRequest) request).getSession(false);
                            seen[0] = session == null ? null : (String) session.getAttribute("cart");
                        }
                    });
                    assertThat(seen[0]).isEqualTo("pen");
                });
    }

    /** A WAR deployed at {@code /shop}: its sessions are not those of the other applications sharing the table. */
    @Test
    void theKeyScopeIsTheServletContextPath(EmbeddedHBase server, TestNamespace namespace) {
        new WebApplicationContextRunner(() -> {
            AnnotationConfigServletWebApplicationContext context = new AnnotationConfigServletWebApplicationContext();
            MockServletContext war = new MockServletContext();
            war.setContextPath("/shop");
            context.setServletContext(war);
            return context;
        }).withPropertyValues(HBaseProperties.of(server, namespace)).withUserConfiguration(SessionConfig.class)
                .run(context -> assertThat(context.getBean(HBaseIndexedSessionRepository.class).store().keyScope())
                        .isEqualTo("/shop"));
    }

    @Test
    void withoutTheAnnotationTheStarterIsOn() {
        runner.withConfiguration(AutoConfigurations.of(HBaseSessionsAutoConfiguration.class))
                .run(context -> assertThat(context).hasSingleBean(SessionStoreProperties.class)
                        .doesNotHaveBean(HBaseIndexedSessionRepository.class));
    }

    @Test
    void aMisspeltPropertyStopsTheStartWithTheStoresExplanation() {
        runner.withUserConfiguration(SessionConfig.class).withPropertyValues("hbase.sessions.zookeper-quorum=zk1")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasRootCauseInstanceOf(StoreConfigurationException.class)
                        .rootCause().hasMessageContaining("hbase.sessions.zookeper-quorum"));
    }
}
