package io.hbasesessions.store.codec;

import io.hbasesessions.store.SerializerKind;
import java.util.Optional;

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
     * The name of the class the bytes give for the value, read without loading any class or reading anything
     * else of the value (for an operator's look at a stored session); empty when the bytes do not say.
     */
    Optional<String> className(byte[] bytes);

    /**
     * The codec of {@code kind} for the web application whose classes {@code loader} defines, under the class
     * rules of a store with neither an attribute class filter nor {@code allowedAttributeClasses}, and the limits
     * of the default {@code maxSessionBytes}.
     */
    static SessionCodec of(SerializerKind kind, ClassLoader loader) {
        return of(kind, ClassRules.defaults(loader), ReadLimits.DEFAULT);
    }

    /** The codec of {@code kind} under {@code rules} and {@code limits}. */
    static SessionCodec of(SerializerKind kind, ClassRules rules, ReadLimits limits) {
        return switch (kind) {
            case KRYO -> new KryoCodec(rules, limits);
            case JAVA -> new JavaCodec(rules, limits);
        };
    }
}
