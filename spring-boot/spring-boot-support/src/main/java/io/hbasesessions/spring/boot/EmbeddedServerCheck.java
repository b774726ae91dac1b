package io.hbasesessions.spring.boot;

import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Fails the start of an application whose sessions the starter could not put in HBase: its server is
 * neither Boot's embedded Tomcat nor Jetty (Undertow on Boot 3.5, or a WAR in an external container),
 * so it would keep them in memory while the application counts on them being shared.
 */
final class EmbeddedServerCheck implements ApplicationListener<ApplicationStartedEvent> {

    private final SessionStoresHealth stores;

    EmbeddedServerCheck(SessionStoresHealth stores) {
        this.stores = stores;
    }

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        if (!stores.anyOpen()) {
            throw new IllegalStateException("hbase-sessions-spring-boot-starter is on (" + SessionStoreProperties.ENABLED
                    + "), but no HBase session store opened: sessions are stored in HBase on Boot's embedded Tomcat and "
                    + "Jetty only. On another server (Undertow, or a WAR in an external Tomcat or Jetty), use that "
                    + "container's adapter (README) and set " + SessionStoreProperties.ENABLED + "=false.");
        }
    }
}
