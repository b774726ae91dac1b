package io.hbasesessions.store;

/**
 * What {@code hbase-sessions sweep-index} did to the {@code user_sessions} index.
 *
 * @param scanned entries old enough to judge ({@code minEntryAgeSeconds} or older)
 * @param removed entries whose session is gone, ended, unreadable or no longer the user's: removed
 * @param kept entries of live sessions of their user
 * @param unparseable rows whose key is no index entry this store wrote: left as they are
 */
public record IndexSweep(long scanned, long removed, long kept, long unparseable, long minEntryAgeSeconds) {
}
