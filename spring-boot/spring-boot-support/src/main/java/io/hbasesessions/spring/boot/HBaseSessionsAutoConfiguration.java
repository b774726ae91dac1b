package io.hbasesessions.spring.boot;

import io.hbasesessions.api.SessionRevoker;
import io.hbasesessions.micrometer.SessionStoreMetrics;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * What the starter offers on both Boot lines: the checked {@code hbase.sessions.*} settings (which each
 * line's server customizer installs), the open stores (for the health indicator, and the check that the
 * server's sessions did go to HBase), the {@link SessionRevoker} for "log out everywhere", and, with
 * Micrometer, the stores' meters (Boot binds every {@code MeterBinder} bean to its registry).
 */
@AutoConfiguration
@ConditionalOnHBaseSessions
public class HBaseSessionsAutoConfiguration {

    @Bean
    public SessionStoreProperties hbaseSessionStoreProperties(Environment environment) {
        return SessionStoreProperties.bind(environment, getClass().getClassLoader());
    }

    @Bean
    public SessionStoresHealth hbaseSessionStoresHealth() {
        return new SessionStoresHealth();
    }

    @Bean
    public EmbeddedServerCheck hbaseSessionsEmbeddedServerCheck(SessionStoresHealth stores) {
        return new EmbeddedServerCheck(stores);
    }

    @Bean
    @ConditionalOnMissingBean(SessionRevoker.class)
    public SessionRevoker hbaseSessionRevoker() {
        return new ServletContextSessionRevoker();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.core.instrument.binder.MeterBinder")
    static class Metrics {

        @Bean
        @ConditionalOnMissingBean(SessionStoreMetrics.class)
        SessionStoreMetrics hbaseSessionStoreMetrics() {
            return new SessionStoreMetrics();
        }
    }
}
