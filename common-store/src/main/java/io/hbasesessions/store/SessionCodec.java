package io.hbasesessions.store;

/**
 * Turns one attribute value into bytes and back, for one web application: its classes are resolved
 * with that application's class loader, under the read rules (which classes stored bytes may name,
 * and how much they may make the decoder do). Implementations are thread-safe.
 */
public interface SessionCodec {

    SerializerKind kind();

    /** @throws CodecException if the value cannot be serialized */
    byte[] encode(Object value);

    /**
     * @throws CodecException if the bytes cannot be read back, for any reason (a class that is gone,
     *     damaged bytes, an error thrown by the value's own code, bytes the read rules refuse): the
     *     caller drops that one value
     */
    Object decode(byte[] bytes);

    /**
     * The codec of {@code kind} for the web application whose classes {@code loader} loads, with the
     * built-in deny list and the limits of the default {@code maxSessionBytes}.
     */
    static SessionCodec of(SerializerKind kind, ClassLoader loader) {
        return kind.codec(ClassRules.denyListOnly(loader), ReadLimits.DEFAULT);
    }
}
