package io.hbasesessions.store.codec;

import io.hbasesessions.store.SerializerKind;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamConstants;
import java.util.Optional;

/**
 * Plain Java serialization, resolving classes through the web application's class loader, under the
 * read rules ({@link WebappObjectInputStream}).
 */
final class JavaCodec implements SessionCodec {

    private final ClassRules rules;
    private final ReadLimits limits;

    JavaCodec(ClassRules rules, ReadLimits limits) {
        this.rules = rules;
        this.limits = limits;
    }

    @Override
    public SerializerKind kind() {
        return SerializerKind.JAVA;
    }

    @Override
    public byte[] encode(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException | RuntimeException e) {
            throw new CodecException("Java serialization failed: " + e, e);
        }
        return bytes.toByteArray();
    }

    /** The class of the stream's first object, as its class description names it. */
    @Override
    public Optional<String> className(byte[] bytes) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            if (in.readShort() != ObjectStreamConstants.STREAM_MAGIC) {
                return Optional.empty();
            }
            in.readShort();
            return switch (in.readByte()) {
                case ObjectStreamConstants.TC_NULL -> Optional.of("null");
                case ObjectStreamConstants.TC_STRING, ObjectStreamConstants.TC_LONGSTRING -> Optional.of("java.lang.String");
                case ObjectStreamConstants.TC_OBJECT, ObjectStreamConstants.TC_ARRAY, ObjectStreamConstants.TC_ENUM ->
                        switch (in.readByte()) {
                            case ObjectStreamConstants.TC_CLASSDESC -> Optional.of(in.readUTF());
                            case ObjectStreamConstants.TC_PROXYCLASSDESC -> Optional.of("a dynamic proxy");
                            default -> Optional.empty();
                        };
                default -> Optional.empty();
            };
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public Object decode(byte[] bytes) {
        Unfolding unfolding = new Unfolding(limits.unfoldingBudget(bytes.length));
        try (WebappObjectInputStream in = new WebappObjectInputStream(bytes, rules, limits, unfolding, true)) {
            return in.readAttributeValue();
        } catch (Throwable e) {
            // Anything, Errors included (a value's own readObject, a refused class or claim): this value only.
            throw CodecException.readFailure("Java", e);
        }
    }
}
