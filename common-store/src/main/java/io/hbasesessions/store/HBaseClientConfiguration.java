package io.hbasesessions.store;

import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;

/**
 * The HBase client configuration of a store: {@code hbaseSite} and {@code zookeeperQuorum}, then every
 * client timeout set so that no call waits longer than {@code operationTimeoutMillis}, retries included,
 * and the wait of a timeline read for its primary replica ({@code timelineReadAfterMillis}).
 */
final class HBaseClientConfiguration {

    /** Short pauses: the operation timeout, not the retry count, is what ends a failing call. */
    private static final long RETRY_PAUSE_MILLIS = 50;
    private static final int RETRIES = 15;
    private static final int ZOOKEEPER_RETRIES = 2;
    private static final long ZOOKEEPER_RETRY_PAUSE_MILLIS = 100;
    /** In microseconds: HBase 2.6's {@code ConnectionConfiguration.PRIMARY_CALL_TIMEOUT_MICROSECOND}. */
    private static final String PRIMARY_CALL_TIMEOUT_MICROS = "hbase.client.primaryCallTimeout.get";

    static {
        // Also under the configurations HBase's client makes for itself, which no setting of ours reaches: see the file.
        Configuration.addDefaultResource("hbase-sessions-client.xml");
    }

    private HBaseClientConfiguration() {
    }

    static Configuration of(StoreSettings settings) {
        Configuration conf = HBaseConfiguration.create();
        // Classes the client loads by name come from the store's loader, never from whichever webapp opened it first.
        conf.setClassLoader(HBaseClientConfiguration.class.getClassLoader());
        settings.find(Setting.HBASE_SITE).ifPresent(site -> conf.addResource(url(site)));
        settings.find(Setting.ZOOKEEPER_QUORUM).ifPresent(quorum -> conf.set(HConstants.ZOOKEEPER_QUORUM, quorum));
        bound(conf, settings.get(Setting.OPERATION_TIMEOUT_MILLIS));
        // Read only for Gets with Consistency.TIMELINE, which the store sends only with timelineReads.
        conf.setLong(PRIMARY_CALL_TIMEOUT_MICROS,
                TimeUnit.MILLISECONDS.toMicros(settings.get(Setting.TIMELINE_READ_AFTER_MILLIS)));
        return conf;
    }

    private static void bound(Configuration conf, long timeoutMillis) {
        conf.setLong(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, timeoutMillis);
        conf.setLong(HConstants.HBASE_CLIENT_META_OPERATION_TIMEOUT, timeoutMillis);
        conf.setLong(HConstants.HBASE_RPC_TIMEOUT_KEY, timeoutMillis);
        conf.setLong(HConstants.HBASE_RPC_READ_TIMEOUT_KEY, timeoutMillis);
        conf.setLong(HConstants.HBASE_RPC_WRITE_TIMEOUT_KEY, timeoutMillis);
        conf.setLong("hbase.ipc.client.socket.timeout.connect", timeoutMillis);
        conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, RETRIES);
        conf.setLong(HConstants.HBASE_CLIENT_PAUSE, RETRY_PAUSE_MILLIS);
        conf.setInt("zookeeper.session.timeout", (int) timeoutMillis);
        conf.setInt("zookeeper.recovery.retry", ZOOKEEPER_RETRIES);
        conf.setLong("zookeeper.recovery.retry.intervalmill", ZOOKEEPER_RETRY_PAUSE_MILLIS);
    }

    private static URL url(Path site) {
        try {
            return site.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new StoreConfigurationException("hbaseSite=" + site + " cannot be read as a URL", e);
        }
    }
}
