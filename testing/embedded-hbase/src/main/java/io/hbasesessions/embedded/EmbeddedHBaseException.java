package io.hbasesessions.embedded;

/**
 * The embedded HBase could not be started or used. The message says what went wrong and what to do;
 * where the server itself failed, it ends with the last lines of the server's log.
 */
public class EmbeddedHBaseException extends RuntimeException {

    public EmbeddedHBaseException(String message) {
        super(message);
    }

    public EmbeddedHBaseException(String message, Throwable cause) {
        super(message, cause);
    }
}
