package io.hbasesessions.sample.session;

import io.hbasesessions.spring.session.EnableHBaseHttpSession;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop whose sessions are Spring Session's, in HBase, on Undertow: {@link EnableHBaseHttpSession} and
 * {@code hbase.sessions.zookeeper-quorum} are all it takes.
 */
@SpringBootApplication
@EnableHBaseHttpSession
public class SessionSampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SessionSampleApplication.class, args);
    }
}
