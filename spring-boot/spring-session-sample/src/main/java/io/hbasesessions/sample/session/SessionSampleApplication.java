package io.hbasesessions.sample.session;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.support.SpringBootServletInitializer;

/**
 * A shop whose sessions are Spring Session's, in HBase, on Undertow (or as a WAR in an external container, which starts
 * it as a {@link SpringBootServletInitializer}): spring-session-hbase on the classpath and
 * {@code hbase.sessions.zookeeper-quorum} are all it takes (Boot picks the store from the classpath; an application
 * that wants to set the flush mode, save mode or session system puts {@code @EnableHBaseHttpSession} on a
 * configuration class instead).
 */
@SpringBootApplication
public class SessionSampleApplication extends SpringBootServletInitializer {

    public static void main(String[] args) {
        SpringApplication.run(SessionSampleApplication.class, args);
    }
}
