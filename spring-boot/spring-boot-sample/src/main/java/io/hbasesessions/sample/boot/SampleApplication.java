package io.hbasesessions.sample.boot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A shop whose sessions live in HBase: the starter on the classpath and
 * {@code hbase.sessions.zookeeper-quorum} in application.properties are all it takes.
 */
@SpringBootApplication
public class SampleApplication {

    public static void main(String[] args) {
        SpringApplication.run(SampleApplication.class, args);
    }
}
