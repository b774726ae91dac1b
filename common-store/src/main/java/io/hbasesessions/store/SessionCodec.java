package io.hbasesessions.store;

/**
 * Turns one attribute value into bytes and back, for one web application: its classes are resolved
 * with that application's class loader. Implementations are thread-safe.
 */
public interface SessionCodec {

    SerializerKind kind();

    /** @throws CodecException if the value cannot be serialized */
    byte[] encode(Object value);

    /**
     * @throws CodecException if the bytes cannot be read back, for any reason (a class that is gone,
     *     damaged bytes, an error thrown by the value's own code): the caller drops that one value
     */
    Object decode(byte[] bytes);

    /** The codec of {@code kind} for the web application whose classes {@code loader} loads. */
    static SessionCodec of(SerializerKind kind, ClassLoader loader) {
        return switch (kind) {
            case KRYO -> new KryoCodec(loader);
            case JAVA -> new JavaCodec(loader);
        };
    }
}
