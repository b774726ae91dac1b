package io.hbasesessions.store;

/** A session row as read: its parsed state and the version a conditional write must match. */
record SessionRow(StoredState state, long version) {
}
