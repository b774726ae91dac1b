package io.hbasesessions.store;

/** A setting is invalid, or the HBase tables are missing or differ from what the store needs. */
public class StoreConfigurationException extends SessionStoreException {
    public StoreConfigurationException(String message) {
        super(message, null, null);
    }

    public StoreConfigurationException(String message, Throwable cause) {
        super(message, null, cause);
    }
}
