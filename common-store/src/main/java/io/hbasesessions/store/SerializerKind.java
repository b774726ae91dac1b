package io.hbasesessions.store;

/** How attribute values are serialized. Sessions written with either can always be read back. */
public enum SerializerKind {
    /** Kryo 5: compact and fast; falls back to Java serialization where Kryo would be wrong. */
    KRYO,
    /** Plain {@code java.io} serialization: the container's own behaviour, for attribute classes Kryo cannot handle. */
    JAVA
}
