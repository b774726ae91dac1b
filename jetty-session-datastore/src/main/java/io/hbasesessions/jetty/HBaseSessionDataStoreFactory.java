package io.hbasesessions.jetty;

import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.session.AbstractSessionDataStoreFactory;
import org.eclipse.jetty.session.SessionDataStore;
import org.eclipse.jetty.session.SessionManager;

/**
 * Makes an {@link HBaseSessionDataStore} for each web application. Add it to the {@code Server} as a
 * bean (the {@code session-store-hbase} module does) and every context stores its sessions in HBase.
 * The setters carry the configuration names shared with Tomcat and the module's
 * {@code jetty.session.hbase.*} properties; unset ones keep the store's defaults. Values are checked
 * when a context starts, all at once, with messages that say how to fix them.
 */
public class HBaseSessionDataStoreFactory extends AbstractSessionDataStoreFactory {

    private final Map<String, String> namedSettings = new LinkedHashMap<>();

    @Override
    public SessionDataStore getSessionDataStore(SessionManager manager) {
        HBaseSessionDataStore store = new HBaseSessionDataStore(namedSettings);
        store.setGracePeriodSec(getGracePeriodSec());
        store.setSavePeriodSec(getSavePeriodSec());
        return store;
    }

    /** Path of an {@code hbase-site.xml} with the connection settings. */
    public void setHbaseSite(String path) {
        set("hbaseSite", path);
    }

    /** ZooKeeper hosts, {@code host[:port],...}; overrides the quorum of {@code hbaseSite}. */
    public void setZookeeperQuorum(String quorum) {
        set("zookeeperQuorum", quorum);
    }

    /** The sessions table, optionally {@code namespace:name} (default {@code sessions}). */
    public void setTable(String table) {
        set("table", table);
    }

    /** The principal index table (default {@code user_sessions}). */
    public void setIndexTable(String indexTable) {
        set("indexTable", indexTable);
    }

    /** Contexts (on any container) with the same scope share sessions; default: context path (+ {@code @vhost}). */
    public void setKeyScope(String keyScope) {
        set("keyScope", keyScope);
    }

    /** Pre-split regions of a table this store creates (default 16). */
    public void setRegions(int regions) {
        set("regions", Integer.toString(regions));
    }

    /** No session outlives this, however active (the table's TTL; default 7 days). */
    public void setMaxLifetimeSeconds(long seconds) {
        set("maxLifetimeSeconds", Long.toString(seconds));
    }

    /** An unchanged session is re-written to slide its expiry at most once per this interval (default 60). */
    public void setTouchIntervalSeconds(long seconds) {
        set("touchIntervalSeconds", Long.toString(seconds));
    }

    /** {@code optimistic} (default), {@code pessimistic} or {@code none}. */
    public void setLockingMode(String mode) {
        set("lockingMode", mode);
    }

    /** WAL durability of attribute writes: {@code SYNC_WAL} (default), {@code FSYNC_WAL}, {@code ASYNC_WAL}, {@code USE_DEFAULT}. */
    public void setWriteDurability(String durability) {
        set("writeDurability", durability);
    }

    /** WAL durability of access-time-only writes (default {@code ASYNC_WAL}). */
    public void setTouchDurability(String durability) {
        set("touchDurability", durability);
    }

    /** Bound on every HBase operation, retries included (default 5000). */
    public void setOperationTimeoutMillis(long millis) {
        set("operationTimeoutMillis", Long.toString(millis));
    }

    /** While HBase is unreachable: {@code error} (503, default) or {@code new_session} (a node-local session). */
    public void setFailMode(String mode) {
        set("failMode", mode);
    }

    /** {@code kryo} (default) or {@code java}. */
    public void setSerializer(String serializer) {
        set("serializer", serializer);
    }

    /** Largest serialized session that is stored (default 1 MiB). */
    public void setMaxSessionBytes(long bytes) {
        set("maxSessionBytes", Long.toString(bytes));
    }

    /** Create missing tables at start (default true). */
    public void setCreateTable(boolean create) {
        set("createTable", Boolean.toString(create));
    }

    private void set(String name, String value) {
        namedSettings.put(name, value);
    }
}
