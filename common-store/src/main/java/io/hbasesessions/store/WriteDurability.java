package io.hbasesessions.store;

/**
 * The HBase write-ahead-log durabilities a session write may use. HBase's {@code SKIP_WAL} is
 * deliberately absent: a session store never loses acknowledged writes on a region server crash.
 */
public enum WriteDurability {
    /** The table's default (HBase's default is SYNC_WAL). */
    USE_DEFAULT,
    /** Written to the WAL asynchronously: a region server crash can lose the last moment of writes. */
    ASYNC_WAL,
    /** Written to the WAL and the WAL synced to the file system before the write is acknowledged. */
    SYNC_WAL,
    /** As SYNC_WAL, and the WAL is fsynced to disk. */
    FSYNC_WAL
}
