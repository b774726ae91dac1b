package io.hbasesessions.store;

/** HBase could not be reached or did not answer within {@code operationTimeoutMillis}. */
public class StoreUnavailableException extends SessionStoreException {
    public StoreUnavailableException(String message, String sessionKeyHex, Throwable cause) {
        super(message, sessionKeyHex, cause);
    }
}
