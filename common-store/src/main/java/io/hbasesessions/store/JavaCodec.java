package io.hbasesessions.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/** Plain Java serialization, resolving classes through the web application's class loader. */
final class JavaCodec implements SessionCodec {

    private final ClassLoader loader;

    JavaCodec(ClassLoader loader) {
        this.loader = loader;
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

    @Override
    public Object decode(byte[] bytes) {
        try (ObjectInputStream in = new WebappObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return in.readObject();
        } catch (ClassNotFoundException e) {
            throw new CodecException("class not found: " + e.getMessage(), e);
        } catch (Throwable e) {
            throw new CodecException("Java deserialization failed: " + e, e);
        }
    }
}
