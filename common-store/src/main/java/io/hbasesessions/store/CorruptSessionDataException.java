package io.hbasesessions.store;

/** A state cell that is not a session this store wrote: unknown format, truncated, or damaged. */
class CorruptSessionDataException extends RuntimeException {
    CorruptSessionDataException(String message) {
        super(message);
    }

    CorruptSessionDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
