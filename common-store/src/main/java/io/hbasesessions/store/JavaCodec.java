package io.hbasesessions.store;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

/** Plain Java serialization, resolving classes through the web application's class loader. */
final class JavaCodec implements SessionCodec {

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
    public Object decode(byte[] bytes, ClassLoader loader) {
        try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return in.readObject();
        } catch (ClassNotFoundException e) {
            throw new CodecException("class not found: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            throw new CodecException("Java deserialization failed: " + e, e);
        }
    }

    private static final class LoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(description.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                // Primitive types and arrays of them are resolved by the default implementation.
                return super.resolveClass(description);
            }
        }
    }
}
