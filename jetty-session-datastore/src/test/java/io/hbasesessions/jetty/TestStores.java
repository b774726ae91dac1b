package io.hbasesessions.jetty;

import io.hbasesessions.store.Container;
import io.hbasesessions.store.SessionStore;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.Webapp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.TestNamespace;
import java.util.LinkedHashMap;
import java.util.Map;

/** Store settings for the nodes of one test class, and a store of the same scope to look into HBase with. */
final class TestStores {

    private TestStores() {
    }

    /** Settings by configuration name, as the Jetty module would pass them. */
    static Map<String, String> settings(EmbeddedHBase hbase, TestNamespace namespace) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("zookeeperQuorum", hbase.zookeeperQuorum() + ":" + hbase.zookeeperPort());
        settings.put("table", namespace.table("sessions"));
        settings.put("indexTable", namespace.table("user_sessions"));
        settings.put("regions", "1");
        settings.put("operationTimeoutMillis", "2000");
        return settings;
    }

    /** A store of the nodes' default scope (the context path), reading the same table. */
    static SessionStore inspector(Map<String, String> settings) {
        StoreSettings.Builder builder = StoreSettings.builder().set(Setting.KEY_SCOPE, JettyNode.CONTEXT_PATH);
        settings.forEach(builder::set);
        return SessionStores.open(builder.build(), new Webapp(TestStores.class.getClassLoader(), Container.NONE));
    }

    /** Whether a live session has this id. */
    static boolean exists(SessionStore store, String id) {
        return store.liveAmong(List.of(id)).contains(id);
    }

    /** The session's state cell as HBase holds it, to see whether anything wrote it. */
    static byte[] stateCell(Configuration hbase, Map<String, String> settings, String id) throws IOException {
        byte[] row;
        try {
            row = MessageDigest.getInstance("SHA-256")
                    .digest((JettyNode.CONTEXT_PATH + "\n" + id).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (Connection connection = ConnectionFactory.createConnection(hbase);
                Table table = connection.getTable(TableName.valueOf(settings.get("table")))) {
            return table.get(new Get(row)).getValue(Bytes.toBytes("s"), Bytes.toBytes("state"));
        }
    }
}
