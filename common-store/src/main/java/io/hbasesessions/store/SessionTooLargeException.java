package io.hbasesessions.store;

/** The serialized session is larger than {@code maxSessionBytes}; the stored state was left as it was. */
public class SessionTooLargeException extends SessionStoreException {

    private final long sizeBytes;
    private final long maxSessionBytes;

    public SessionTooLargeException(String sessionKeyHex, long sizeBytes, long maxSessionBytes) {
        super("Session is " + sizeBytes + " bytes serialized, over maxSessionBytes=" + maxSessionBytes
                + "; it was not saved. Store less in the session or raise maxSessionBytes.", sessionKeyHex, null);
        this.sizeBytes = sizeBytes;
        this.maxSessionBytes = maxSessionBytes;
    }

    public long sizeBytes() {
        return sizeBytes;
    }

    public long maxSessionBytes() {
        return maxSessionBytes;
    }
}
