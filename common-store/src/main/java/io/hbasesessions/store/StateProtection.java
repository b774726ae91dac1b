package io.hbasesessions.store;

/** What the store does to a state cell so that bytes written into HBase by anyone else are not trusted. */
public enum StateProtection {
    /** Cells as they are: whoever can write the table can forge sessions and logins. */
    NONE,
    /** Each cell carries an HMAC-SHA256 over its row key, version and bytes: readable in HBase, not forgeable. */
    HMAC,
    /** Each cell is AES-GCM encrypted with its row key and version as associated data: neither readable nor forgeable. */
    ENCRYPT
}
