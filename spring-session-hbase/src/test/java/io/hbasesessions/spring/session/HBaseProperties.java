package io.hbasesessions.spring.session;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.spring.boot.SessionStoreProperties;
import io.hbasesessions.store.Setting;

/** The {@code hbase.sessions.*} properties of an application on the tests' HBase, in the test class's tables. */
final class HBaseProperties {

    private HBaseProperties() {
    }

    static String[] of(EmbeddedHBase server, TestNamespace namespace) {
        return new String[] {
            property(Setting.ZOOKEEPER_QUORUM, server.zookeeperQuorum() + ":" + server.zookeeperPort()),
            property(Setting.TABLE, namespace.table("sessions")),
            property(Setting.INDEX_TABLE, namespace.table("user_sessions")),
            property(Setting.REGIONS, "2")};
    }

    private static String property(Setting<?> setting, String value) {
        return SessionStoreProperties.propertyName(setting) + "=" + value;
    }
}
