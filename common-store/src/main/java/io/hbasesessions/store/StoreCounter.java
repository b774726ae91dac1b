package io.hbasesessions.store;

/**
 * What a store counts, defined once: each counter's name (as JMX and the metrics show it) and meaning.
 * {@link StoreCounters} is a snapshot of all of them.
 */
public enum StoreCounter {
    LOADS("loads", "Session lookups (loads)."),
    LOAD_MISSES("loadMisses", "Lookups that found no stored session."),
    EXPIRED_ON_LOAD("expiredOnLoad", "Lookups that found a session past its idle timeout or maximum lifetime."),
    UNREADABLE_ON_LOAD("unreadableOnLoad", "Lookups that found a state cell this store cannot read (treated as absent)."),
    UNREADABLE_ATTRIBUTES("unreadableAttributes", "Attributes that could not be decoded and were left out (kept stored)."),
    REFUSED_ATTRIBUTES("refusedAttributes", "Attributes the read rules refused and left out (kept stored): a class the "
            + "attribute class filter or the deny list refuses, or a claim beyond the decoding bounds."),
    FORGED_STATES("forgedStates", "Lookups that found a state cell failing stateProtection (unprotected, an unknown "
            + "key, changed, or moved from another row or version): treated as absent."),
    STALE_READS("staleReads", "Loads answered by a secondary region replica (timelineReads) because the primary did "
            + "not answer within timelineReadAfterMillis."),
    CREATES("creates", "New sessions stored."),
    FULL_WRITES("fullWrites", "Saves that wrote changed attributes or metadata."),
    TOUCHES("touches", "Saves that only moved the last access time (debounced)."),
    TOUCHES_SKIPPED("touchesSkipped", "Accesses not written because the last touch is recent enough."),
    TOUCHES_DEFERRED("touchesDeferred", "Due touches of a session loaded from a secondary replica that the primary did "
            + "not take in time: left to a later request; the request itself succeeds."),
    UNCHANGED_SAVES("unchangedSaves", "Saves that had nothing to write."),
    CONFLICTS("conflicts", "Saves that found another writer's newer version."),
    CONFLICT_RETRIES("conflictRetries", "Extra attempts after a conflict."),
    DELETES("deletes", "Sessions deleted (invalidation)."),
    ID_CHANGES("idChanges", "Sessions moved to a new id."),
    REVOCATIONS("revocations", "Sessions deleted by \"log out everywhere\"."),
    BYTES_WRITTEN("bytesWritten", "Bytes of state cells written."),
    CALLS_SENT_ALONE("callsSentAlone", "Gets and touches of sessions sent to HBase on their own "
            + "(coalesceCalls: to a region server with nothing in flight)."),
    MULTI_ACTIONS("multiActions", "Multi-actions that carried the Gets or touches of several requests together "
            + "(coalesceCalls)."),
    CALLS_IN_MULTI_ACTIONS("callsInMultiActions", "Gets and touches sent in those multi-actions."),
    EXPIRY_ENTRIES("expiryEntries", "Expiry index entries written (expiryEvents): one by a write that moved its "
            + "session's end into another time bucket."),
    EXPIRY_BUCKETS_SWEPT("expiryBucketsSwept", "Due expiry buckets this node claimed and swept (expiryEvents)."),
    EXPIRED_BY_SWEEP("expiredBySweep", "Sessions this node's sweeps ended for their expiry events (expiryEvents)."),
    EXPIRY_ENTRIES_REFUSED("expiryEntriesRefused", "Expiry index entries a sweep dropped because they do not name a "
            + "session of this key scope (failed their seal, or an id that does not hash to their row)."),
    STICKY_HITS("stickyHits", "Loads routed to this node that its copy answered, without HBase (stickySessions)."),
    STICKY_MISSES("stickyMisses", "Loads routed to this node that HBase answered: no copy, or the changes of other "
            + "nodes not read lately enough (stickySessions)."),
    STICKY_INVALIDATIONS("stickyInvalidations", "Copies dropped because another node changed, ended or took over "
            + "their session (stickySessions)."),
    CHANGES_ANNOUNCED("changesAnnounced", "Writes and ends of a session whose home is another node, announced to its "
            + "copies in changesTable."),
    ERRORS("errors", "Operations that failed because HBase could not be reached or did not answer in time.");

    private final String counterName;
    private final String description;

    StoreCounter(String counterName, String description) {
        this.counterName = counterName;
        this.description = description;
    }

    /** The name under which JMX and the metrics publish it. */
    public String counterName() {
        return counterName;
    }

    public String description() {
        return description;
    }

    /** Counted for a write that reached a session row. */
    boolean isSessionWrite() {
        return this == CREATES || this == FULL_WRITES || this == TOUCHES || this == ID_CHANGES;
    }
}
