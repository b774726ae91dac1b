package io.hbasesessions.store;

/** What a request gets when the store is unavailable. Applied by the adapters. */
public enum FailMode {
    /** The request fails with an error (HTTP 503 in the adapters). Nothing stored is touched. */
    ERROR,
    /** The request continues with a fresh session that is not stored; the stored session is left as it was. */
    NEW_SESSION
}
