package io.hbasesessions.store;

import java.util.List;
import java.util.Optional;

/**
 * What an operator does to the store's tables from outside any container ({@code hbase-sessions}, the
 * admin command line). Every rule here is the store's own: the schema check is the one a node runs at
 * start, revocation is {@link SessionStore#revokeAll}, a session is decoded under the same read rules as
 * on a node. Open one with {@link SessionStores#administer}; not thread-safe.
 */
public interface StoreAdministration extends AutoCloseable {

    /**
     * Creates the tables that are missing (as {@link SessionStores#tablePlans} describes them) and checks
     * them all; returns the names it created.
     *
     * @throws StoreConfigurationException if an existing table differs, with the fix
     */
    List<String> createTables();

    /**
     * What a node starting with {@code createTable=false} would refuse to start with, in the words of its
     * start-up check (each with the HBase shell command that fixes it); empty when the schema is right.
     */
    List<String> schemaProblems();

    /**
     * Rows per region and region server (counted up to {@code rowCountLimitPerRegion} per region), bytes and
     * store files, and age and size histograms of about {@code sampleRows} rows.
     */
    StoreStats stats(int sampleRows, long rowCountLimitPerRegion);

    /**
     * The session of {@code sessionId} in the configured {@code keyScope}. Stored values are decoded only with
     * {@code valueClasses}: as values of the application whose classes that loader defines, under the store's
     * class rules, so give it the application's jars over the JDK's platform loader and nothing else (this
     * tool's own class path, which holds the libraries the store refuses, is never searched). Without it, each
     * attribute shows the class its bytes name and nothing of it is decoded.
     *
     * @throws IllegalArgumentException if no session can have that id (the message does not repeat it)
     */
    SessionInspection inspect(String sessionId, Optional<ClassLoader> valueClasses);

    /**
     * The session in the row {@code rowKeyHex} (64 hex digits, as logs and {@code findByUser} give it), as
     * {@link #inspect} shows it.
     *
     * @throws IllegalArgumentException if it is not 64 hex digits
     */
    SessionInspection inspectRow(String rowKeyHex, Optional<ClassLoader> valueClasses);

    /** "Log out everywhere" for {@code user}: {@link SessionStore#revokeAll}, with the sessions it found first. */
    Revocation revoke(String user);

    /**
     * Removes the user index entries whose session is gone (deleted, ended, unreadable, or now another
     * user's), of entries written at least {@code minEntryAgeSeconds} ago: a younger entry may be a login
     * between its index entry and its session write.
     *
     * @throws IllegalArgumentException if {@code minEntryAgeSeconds} is shorter than {@code operationTimeoutMillis}
     */
    IndexSweep sweepIndex(long minEntryAgeSeconds);

    @Override
    void close();
}
