package io.hbasesessions.store.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Java serialization semantics inside a Kryo graph, for classes whose own hooks ({@code writeObject},
 * {@code readObject}, {@code writeReplace}, {@code readResolve}, {@code Externalizable}) must run, and
 * for the JDK's private collection wrappers ({@code Collections.unmodifiableList} and the like) that
 * Kryo cannot rebuild. The object itself goes through a Java object stream, so its hooks run; every
 * object it refers to is taken out of that stream and written through Kryo instead. So a wrapper and
 * the list it wraps, referenced from elsewhere in the same attribute, stay one list: Kryo's reference
 * table sees every object of the graph, which a nested {@code JavaSerializer} would not.
 *
 * <p>Wire form: the number of referenced objects, each written by Kryo in the order the Java stream
 * met them, then the Java stream's bytes, in which each referenced object is a {@link Nested} index.
 */
final class JavaHooksSerializer extends Serializer<Object> {

    @Override
    public void write(Kryo kryo, Output output, Object object) {
        ByteArrayOutputStream stream = new ByteArrayOutputStream(128);
        NestingOutputStream java;
        try {
            java = new NestingOutputStream(stream, object);
            java.writeObject(object);
            java.close();
        } catch (IOException e) {
            throw new KryoException("Java serialization of " + object.getClass().getName() + " failed: " + e, e);
        }
        output.writeVarInt(java.nested.size(), true);
        KryoCodec.CycleGuard.writing(kryo, object, () -> java.nested.forEach(nested -> kryo.writeClassAndObject(output, nested)));
        byte[] bytes = stream.toByteArray();
        output.writeVarInt(bytes.length, true);
        output.writeBytes(bytes);
    }

    @Override
    public Object read(Kryo kryo, Input input, Class<? extends Object> type) {
        Object[] nested = new Object[BoundedInput.count(input)];
        for (int i = 0; i < nested.length; i++) {
            nested[i] = kryo.readClassAndObject(input);
        }
        byte[] bytes = input.readBytes(BoundedInput.count(input));
        KryoCodec.SessionKryo session = (KryoCodec.SessionKryo) kryo;
        try (NestedObjectInputStream java = new NestedObjectInputStream(bytes, session, nested)) {
            return java.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new KryoException("Java deserialization of " + type.getName() + " failed: " + e, e);
        }
    }

    /** Stands, in the Java stream, for the object at {@code index} of those written through Kryo. */
    record Nested(int index) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** A Java object stream that writes only the root object itself and hands everything it refers to over to Kryo. */
    private static final class NestingOutputStream extends ObjectOutputStream {
        private final Object root;
        private final List<Object> nested = new ArrayList<>();
        private final Map<Object, Nested> handles = new IdentityHashMap<>();
        private boolean rootSeen;

        NestingOutputStream(OutputStream out, Object root) throws IOException {
            super(out);
            this.root = root;
            enableReplaceObject(true);
        }

        @Override
        protected Object replaceObject(Object object) {
            // The first object is the root (or what its writeReplace gave); it and values Java writes by value stay.
            if (!rootSeen) {
                rootSeen = true;
                return object;
            }
            if (object == root || isWrittenByValue(object)) {
                return object;
            }
            return handles.computeIfAbsent(object, key -> {
                nested.add(key);
                return new Nested(nested.size() - 1);
            });
        }

        private static boolean isWrittenByValue(Object object) {
            return object instanceof String || object instanceof Number && object.getClass().getName().startsWith("java.lang.")
                    || object instanceof Boolean || object instanceof Character || object instanceof Enum<?>
                    || object instanceof Class<?> || object instanceof ObjectStreamClass
                    || object.getClass().isArray() && object.getClass().getComponentType().isPrimitive();
        }
    }

    /**
     * Reads the root object and puts back, for each {@link Nested} index, the object Kryo read (and
     * measured) for it. The root is a class inside the attribute value, not the value's own class as far
     * as the rules go: Kryo named that one.
     */
    private static final class NestedObjectInputStream extends WebappObjectInputStream {
        private final Object[] nested;

        NestedObjectInputStream(byte[] bytes, KryoCodec.SessionKryo session, Object[] nested) throws IOException {
            super(bytes, session.rules(), session.limits(), null, false);
            this.nested = nested;
            enableResolveObject(true);
        }

        /** The stand-in for nested objects is this library's own: the web application's loader need not see it. */
        @Override
        protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
            return description.getName().equals(Nested.class.getName()) ? Nested.class : super.resolveClass(description);
        }

        @Override
        protected Object resolveObject(Object object) throws IOException {
            if (object instanceof Nested handle) {
                if (handle.index() < 0 || handle.index() >= nested.length) {
                    throw new IOException("reference to nested object " + handle.index() + " of " + nested.length);
                }
                return nested[handle.index()];
            }
            return object;
        }
    }
}
