package io.hbasesessions.store;

/**
 * Turns one attribute value into bytes and back. Implementations are thread-safe. The class loader
 * is passed on every read because attribute classes belong to the web application, not to the store.
 */
public interface SessionCodec {

    SerializerKind kind();

    /** @throws CodecException if the value cannot be serialized */
    byte[] encode(Object value);

    /** @throws CodecException if the bytes cannot be read back, e.g. because a class is gone */
    Object decode(byte[] bytes, ClassLoader loader);

    static SessionCodec of(SerializerKind kind) {
        return switch (kind) {
            case KRYO -> new KryoCodec();
            case JAVA -> new JavaCodec();
        };
    }
}
