package io.hbasesessions.sample.webflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop on Spring WebFlux (Netty) whose {@code WebSession}s are Spring Session's, in HBase: spring-session-hbase on
 * the classpath and {@code hbase.sessions.zookeeper-quorum} are all it takes (Boot sees a reactive application and
 * picks the reactive repository; {@code @EnableHBaseWebSession} on a configuration class sets its save mode or session
 * system instead).
 */
@SpringBootApplication
public class WebFluxSessionSampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(WebFluxSessionSampleApplication.class, args);
    }
}
