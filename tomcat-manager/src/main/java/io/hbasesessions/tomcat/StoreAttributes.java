package io.hbasesessions.tomcat;

/**
 * The store settings as XML attributes of {@code <Manager>} and {@code <Store>}: one setter per name of
 * the shared vocabulary, defined once for both. Values stay text; they are checked together when the
 * store opens (see {@link ConfiguredSettings}).
 */
public interface StoreAttributes {

    /** Records one store setting by its configuration name. */
    void setStoreSetting(String name, String value);

    default void setHbaseSite(String path) {
        setStoreSetting("hbaseSite", path);
    }

    default void setZookeeperQuorum(String quorum) {
        setStoreSetting("zookeeperQuorum", quorum);
    }

    default void setTable(String table) {
        setStoreSetting("table", table);
    }

    default void setIndexTable(String table) {
        setStoreSetting("indexTable", table);
    }

    default void setKeyScope(String keyScope) {
        setStoreSetting("keyScope", keyScope);
    }

    default void setRegions(String regions) {
        setStoreSetting("regions", regions);
    }

    default void setMaxLifetimeSeconds(String seconds) {
        setStoreSetting("maxLifetimeSeconds", seconds);
    }

    default void setTouchIntervalSeconds(String seconds) {
        setStoreSetting("touchIntervalSeconds", seconds);
    }

    default void setLockingMode(String mode) {
        setStoreSetting("lockingMode", mode);
    }

    default void setWriteDurability(String durability) {
        setStoreSetting("writeDurability", durability);
    }

    default void setTouchDurability(String durability) {
        setStoreSetting("touchDurability", durability);
    }

    default void setOperationTimeoutMillis(String millis) {
        setStoreSetting("operationTimeoutMillis", millis);
    }

    default void setFailMode(String mode) {
        setStoreSetting("failMode", mode);
    }

    default void setSerializer(String serializer) {
        setStoreSetting("serializer", serializer);
    }

    default void setMaxSessionBytes(String bytes) {
        setStoreSetting("maxSessionBytes", bytes);
    }

    default void setCreateTable(String create) {
        setStoreSetting("createTable", create);
    }
}
