package io.hbasesessions.spring.boot;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.store.Container;
import io.hbasesessions.store.MutableClock;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.Webapp;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Issue #27: every {@code /actuator/health} hit asked HBase for every table's existence and schema. */
@ExtendWith(HBaseExtension.class)
class SessionStoresHealthTest {

    @Test
    void oneCheckOfHBaseAnswersTheHealthRequestsOfTheNextFewSeconds(EmbeddedHBase hbase, TestNamespace namespace) {
        StoreSettings settings = StoreSettings.builder()
                .set(Setting.ZOOKEEPER_QUORUM, hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort())
                .set(Setting.KEY_SCOPE, "/health").set(Setting.TABLE, namespace.table("sessions"))
                .set(Setting.INDEX_TABLE, namespace.table("user_sessions")).set(Setting.REGIONS, 1).build();
        MutableClock clock = new MutableClock(Instant.now());
        try (SessionStore store = SessionStores.open(settings, new Webapp(getClass().getClassLoader(), Container.TOMCAT));
                SessionStoresHealth health = new SessionStoresHealth(clock)) {
            SessionStoresHealth.Report checked = health.check();
            assertTrue(checked.healthy() && checked.details().containsKey("/health"), checked.toString());

            clock.advance(SessionStoresHealth.CHECK_SERVES.minusMillis(1));
            assertSame(checked, health.check(), "HBase was asked again within " + SessionStoresHealth.CHECK_SERVES);
            clock.advance(Duration.ofMillis(1));
            assertNotSame(checked, health.check(), "a check older than " + SessionStoresHealth.CHECK_SERVES + " answered");
        }
    }
}
