package io.hbasesessions.store;

/**
 * A session row as read: its parsed state and the version a conditional write must match.
 *
 * @param stale read from a secondary region replica: possibly older than the primary's row, which every
 *     write is still checked against
 */
record SessionRow(StoredState state, long version, boolean stale) {
}
