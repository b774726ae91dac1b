package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts between a {@link SessionRecord} and its {@link StoredState}, one attribute at a time so
 * that one bad attribute never costs the whole session. Writes with one codec; reads whatever codec
 * the stored state names, so changing the {@code serializer} setting loses no stored session.
 */
final class RecordSerializer {

    private static final System.Logger LOG = System.getLogger(RecordSerializer.class.getName());

    private final SessionCodec writeCodec;
    private final Map<SerializerKind, SessionCodec> readCodecs = new EnumMap<>(SerializerKind.class);

    RecordSerializer(SessionCodec writeCodec) {
        this.writeCodec = writeCodec;
        for (SerializerKind kind : SerializerKind.values()) {
            readCodecs.put(kind, kind == writeCodec.kind() ? writeCodec : SessionCodec.of(kind));
        }
    }

    SerializerKind writeKind() {
        return writeCodec.kind();
    }

    /** @throws UnserializableAttributeException naming the attribute */
    byte[] encodeAttribute(String name, Object value, String sessionKeyHex) {
        try {
            return writeCodec.encode(value);
        } catch (CodecException e) {
            throw new UnserializableAttributeException(name, value.getClass().getName(), sessionKeyHex, e);
        }
    }

    Map<String, byte[]> encodeAttributes(SessionRecord record, String sessionKeyHex) {
        Map<String, byte[]> encoded = new LinkedHashMap<>();
        record.attributes().forEach((name, value) -> encoded.put(name, encodeAttribute(name, value, sessionKeyHex)));
        return encoded;
    }

    StoredState serialize(SessionRecord record, String sessionKeyHex) {
        return new StoredState(writeCodec.kind(), record.creationTime(), record.lastAccessTime(),
                record.maxInactiveInterval(), record.principal().orElse(null), record.extras(),
                encodeAttributes(record, sessionKeyHex));
    }

    /** Attributes that cannot be read (typically: their class is gone after a redeploy) are left out and logged. */
    DecodedSession deserialize(String sessionId, String sessionKeyHex, StoredState state, ClassLoader loader) {
        SessionCodec codec = readCodecs.get(state.serializer());
        Map<String, Object> attributes = new LinkedHashMap<>();
        List<String> unreadable = new ArrayList<>();
        state.attributeBytes().forEach((name, bytes) -> {
            try {
                attributes.put(name, codec.decode(bytes, loader));
            } catch (CodecException e) {
                unreadable.add(name);
                LOG.log(Level.WARNING, "Session {0}: attribute ''{1}'' cannot be read and is left out "
                        + "(its stored bytes are kept): {2}", sessionKeyHex, name, e.getMessage());
            }
        });
        SessionRecord record = SessionRecord.builder(sessionId, state.creationTime())
                .lastAccessTime(state.lastAccessTime())
                .maxInactiveInterval(state.maxInactiveInterval())
                .principal(state.principal().orElse(null))
                .extras(state.extras())
                .attributes(attributes)
                .build();
        return new DecodedSession(record, List.copyOf(unreadable));
    }
}
