package io.hbasesessions.store.codec;

/**
 * Stored bytes the read rules refuse: they name a class that {@link ClassRules} does not let a value
 * use, or claim more than {@link ReadLimits} allows (lengths, nesting, the size of the graph). Thrown
 * before the class is loaded or the memory is allocated; the codec turns it into a refused
 * {@link CodecException}, and the caller drops that one attribute.
 */
final class DecodingRefusedException extends RuntimeException {

    DecodingRefusedException(String reason) {
        super(reason, null, false, false);
    }
}
