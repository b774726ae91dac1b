package io.hbasesessions.spring.boot;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.servlet.server.ServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** A real Boot application on Undertow, which the starter cannot equip: it must not start with sessions in memory. */
class EmbeddedServerCheckTest {

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(HBaseSessionsAutoConfiguration.class)
    static class OnUndertow {

        @Bean
        ServletWebServerFactory undertow() {
            return new UndertowServletWebServerFactory(0);
        }
    }

    @Test
    void anApplicationOnAServerTheStarterCannotEquipDoesNotStart() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> SpringApplication.run(OnUndertow.class, "--hbase.sessions.zookeeper-quorum=zk:2181").close());

        assertTrue(refused.getMessage().contains("no HBase session store opened"), refused.getMessage());
        assertTrue(refused.getMessage().contains("hbase.sessions.enabled=false"), refused.getMessage());
    }

    @Test
    void turnedOffItStarts() {
        SpringApplication.run(OnUndertow.class, "--hbase.sessions.enabled=false").close();
    }
}
