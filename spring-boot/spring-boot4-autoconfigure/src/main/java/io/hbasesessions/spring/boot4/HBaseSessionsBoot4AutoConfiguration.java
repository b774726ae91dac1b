package io.hbasesessions.spring.boot4;

import io.hbasesessions.spring.boot.ConditionalOnHBaseSessions;
import io.hbasesessions.spring.boot.HBaseSessionsAutoConfiguration;
import io.hbasesessions.spring.boot.JettySessions;
import io.hbasesessions.spring.boot.SessionStoreProperties;
import io.hbasesessions.spring.boot.SessionStoresHealth;
import io.hbasesessions.spring.boot.TomcatSessions;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.jetty.JettyServerCustomizer;
import org.springframework.boot.tomcat.TomcatContextCustomizer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The starter on Spring Boot 4: the embedded server's sessions go to HBase through Boot's own
 * customizer types, which only Boot 4 keeps in these packages; each part is conditional on them.
 */
@AutoConfiguration(after = HBaseSessionsAutoConfiguration.class)
@ConditionalOnHBaseSessions
public class HBaseSessionsBoot4AutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.tomcat.TomcatContextCustomizer", "org.apache.catalina.startup.Tomcat"})
    static class EmbeddedTomcat {

        @Bean
        TomcatContextCustomizer hbaseSessionsTomcatContextCustomizer(SessionStoreProperties properties) {
            return context -> TomcatSessions.install(context, properties);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.jetty.JettyServerCustomizer", "org.eclipse.jetty.server.Server"})
    static class EmbeddedJetty {

        @Bean
        JettyServerCustomizer hbaseSessionsJettyServerCustomizer(SessionStoreProperties properties) {
            return server -> JettySessions.install(server, properties);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class Actuator {

        /** The {@code hbaseSessions} component of {@code /actuator/health}. */
        @Bean
        HealthIndicator hbaseSessionsHealthIndicator(SessionStoresHealth stores) {
            return () -> {
                SessionStoresHealth.Report report = stores.check();
                return (report.healthy() ? Health.up() : Health.down()).withDetails(report.details()).build();
            };
        }
    }
}
