package io.hbasesessions.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.api.SessionRevoker;
import io.hbasesessions.micrometer.SessionStoreMetrics;
import io.hbasesessions.store.StoreConfigurationException;
import io.hbasesessions.store.StoreUnavailableException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

/** The shared auto-configuration in real Spring contexts: when it applies, what it offers, how it fails. */
class HBaseSessionsAutoConfigurationTest {

    private final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(HBaseSessionsAutoConfiguration.class))
            .withPropertyValues("hbase.sessions.zookeeper-quorum=zk:2181");

    @Test
    void aServletApplicationGetsTheSettingsTheRevokerAndTheMeters() {
        web.run(context -> {
            assertEquals("zk:2181", context.getBean(SessionStoreProperties.class).byName().get("zookeeperQuorum"));
            assertNotNull(context.getBean(SessionStoreMetrics.class));
            SessionRevoker revoker = context.getBean(SessionRevoker.class);
            IllegalStateException notOpen = assertThrows(IllegalStateException.class, () -> revoker.revokeAll("alice"));
            assertTrue(notOpen.getMessage().contains("not open"), notOpen.getMessage());
        });
    }

    @Test
    void turnedOffItOffersNothing() {
        web.withPropertyValues("hbase.sessions.enabled=false", "hbase.sessions.regions=0").run(context -> {
            assertFalse(context.containsBean("hbaseSessionStoreProperties"));
            assertEquals(0, context.getBeansOfType(SessionRevoker.class).size());
            assertEquals(0, context.getBeansOfType(SessionStoreMetrics.class).size());
        });
    }

    @Test
    void anApplicationThatServesNothingIsLeftAlone() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HBaseSessionsAutoConfiguration.class))
                .run(context -> assertEquals(0, context.getBeansOfType(SessionStoreProperties.class).size()));
    }

    @Test
    void withoutMicrometerThereAreNoMeters() {
        web.withClassLoader(new FilteredClassLoader("io.micrometer")).run(context -> {
            assertEquals(1, context.getBeansOfType(SessionStoreProperties.class).size());
            assertEquals(0, context.getBeansOfType(SessionStoreMetrics.class).size());
        });
    }

    @Test
    void theApplicationsOwnRevokerWins() {
        SessionRevoker own = user -> 42;
        web.withBean(SessionRevoker.class, () -> own)
                .run(context -> assertEquals(42, context.getBean(SessionRevoker.class).revokeAll("alice")));
    }

    @Test
    void aRefusedSettingFailsTheStartAndBootReportsTheStoresExplanation() {
        web.withPropertyValues("hbase.sessions.max-session-bytes=12").run(context -> {
            Throwable failure = context.getStartupFailure();
            assertNotNull(failure);
            StoreConfigurationException cause = rootCause(failure);
            FailureAnalysis analysis = new SessionSettingsFailureAnalyzer().analyze(failure);
            assertEquals(cause.getMessage(), analysis.getDescription());
            assertTrue(analysis.getDescription().contains("maxSessionBytes"), analysis.getDescription());
            assertTrue(analysis.getAction().contains("hbase.sessions.enabled=false"), analysis.getAction());
        });
    }

    @Test
    void anUnreachableHBaseIsReportedWithWhatToDo() {
        FailureAnalysis analysis = new SessionSettingsFailureAnalyzer().analyze(new IllegalStateException("Unable to start "
                + "embedded Jetty", new StoreUnavailableException("HBase failed connecting (zookeeperQuorum=zk:1)", null, null)));

        assertEquals("HBase failed connecting (zookeeperQuorum=zk:1)", analysis.getDescription());
        assertTrue(analysis.getAction().startsWith("Start HBase, or point hbase.sessions.zookeeper-quorum"), analysis.getAction());
    }

    private static StoreConfigurationException rootCause(Throwable failure) {
        Throwable cause = failure;
        while (!(cause instanceof StoreConfigurationException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return assertInstanceOf(StoreConfigurationException.class, cause);
    }
}
