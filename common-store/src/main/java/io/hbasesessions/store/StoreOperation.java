package io.hbasesessions.store;

/**
 * The store calls whose latency is measured ({@link SessionStore#latencies()}), by what they did: a save is a
 * create, a write or a touch after the fact, and a save that wrote nothing is not measured.
 */
public enum StoreOperation {
    LOAD("load", "Session lookups."),
    CREATE("create", "Saves that stored a new session."),
    SAVE("save", "Saves that wrote changed attributes or metadata, merges with another writer included."),
    TOUCH("touch", "Saves that only moved the last access time."),
    DELETE("delete", "Deletions (invalidation)."),
    CHANGE_ID("changeId", "Moves of a session to a new id."),
    REVOKE("revoke", "\"Log out everywhere\" calls."),
    EXPIRY_SWEEP("expirySweep", "Sweeps of the expiry index (expiryEvents).");

    private final String operationName;
    private final String description;

    StoreOperation(String operationName, String description) {
        this.operationName = operationName;
        this.description = description;
    }

    /** The name in JMX attribute names ({@code loadP99Millis}) and metric tags ({@code operation=load}). */
    public String operationName() {
        return operationName;
    }

    public String description() {
        return description;
    }
}
