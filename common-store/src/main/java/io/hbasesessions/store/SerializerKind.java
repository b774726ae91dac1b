package io.hbasesessions.store;

/** How attribute values are serialized. Sessions written with either can always be read back. */
public enum SerializerKind {
    /** Kryo 5: compact and fast; falls back to Java serialization where Kryo would be wrong. */
    KRYO,
    /** Plain {@code java.io} serialization: the container's own behaviour, for attribute classes Kryo cannot handle. */
    JAVA;

    /** The codec of this kind that reads under {@code rules} and {@code limits}. */
    SessionCodec codec(ClassRules rules, ReadLimits limits) {
        return switch (this) {
            case KRYO -> new KryoCodec(rules, limits);
            case JAVA -> new JavaCodec(rules, limits);
        };
    }
}
