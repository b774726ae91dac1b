package io.hbasesessions.store;

/** One value could not be serialized or deserialized; the message says why (e.g. the missing class). */
public final class CodecException extends RuntimeException {
    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
