package io.hbasesessions.store;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import com.esotericsoftware.kryo.util.Pool;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Kryo 5 with the settings that survive real session attributes on JDK 17 and keep each attribute's
 * object graph whole: no registration, references on, Objenesis for classes without a no-arg
 * constructor, Kryo's own serializers where it has them ({@code List.of}, {@code EnumSet}, records,
 * {@code java.time}), {@link ProxySerializer} for dynamic proxies, and {@link JavaHooksSerializer}
 * (Java serialization semantics inside Kryo's reference table) for classes with their own or inherited
 * serialization hooks and for the JDK's private wrappers and views ({@code Arrays.asList} included:
 * Kryo's own serializer for it copies the elements and loses the array it views). An attribute whose
 * graph refers back into an object being written with Java semantics is written wholly with Java
 * serialization instead, which keeps that cycle.
 */
final class KryoCodec implements SessionCodec {

    private static final int POOL_CAPACITY = 64;
    private static final int INITIAL_BUFFER_BYTES = 512;
    private static final int PROXY_REGISTRATION = 50;
    private static final int WHOLE_JAVA_REGISTRATION = 51;
    /** JDK-private collections Kryo has its own serializers for (they write their elements through Kryo). */
    private static final List<String> KRYO_HANDLED_JDK_PRIVATE_COLLECTIONS = List.of("java.util.ImmutableCollections$",
            "java.util.Collections$Empty", "java.util.Collections$Singleton");

    private final ClassLoader loader;
    private final Pool<Kryo> pool = new Pool<>(true, true, POOL_CAPACITY) {
        @Override
        protected Kryo create() {
            return new SessionKryo(loader);
        }
    };

    KryoCodec(ClassLoader loader) {
        this.loader = loader;
    }

    @Override
    public SerializerKind kind() {
        return SerializerKind.KRYO;
    }

    @Override
    public byte[] encode(Object value) {
        try {
            return write(value);
        } catch (CycleThroughJavaHooks e) {
            return write(new WholeJava(value));
        }
    }

    private byte[] write(Object value) {
        Kryo kryo = pool.obtain();
        try {
            Output output = new Output(INITIAL_BUFFER_BYTES, -1);
            kryo.writeClassAndObject(output, value);
            byte[] bytes = output.toBytes();
            pool.free(kryo);
            return bytes;
        } catch (KryoException | IllegalArgumentException | UnsupportedOperationException | SecurityException e) {
            // An instance that failed half-way is not reused: its reference and depth state are unknown.
            if (causedBy(e, CycleThroughJavaHooks.class)) {
                throw new CycleThroughJavaHooks();
            }
            throw new CodecException("Kryo serialization failed: " + messageOf(e), e);
        }
    }

    @Override
    public Object decode(byte[] bytes) {
        Kryo kryo = pool.obtain();
        try {
            Object value = kryo.readClassAndObject(new BoundedInput(bytes));
            pool.free(kryo);
            return value instanceof WholeJava whole ? whole.value : value;
        } catch (Throwable e) {
            // Anything, Errors included (a value's own readObject, a claimed length, deep nesting): this value only.
            throw new CodecException(describeReadFailure(e), e);
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private static String describeReadFailure(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ClassNotFoundException) {
                return "class not found: " + cause.getMessage();
            }
        }
        return "Kryo deserialization failed: " + messageOf(e);
    }

    private static String messageOf(Throwable e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getName() : message.lines().findFirst().orElse(message);
    }

    private static final class SessionKryo extends Kryo {
        private final JavaHooksSerializer javaHooks = new JavaHooksSerializer();

        SessionKryo(ClassLoader loader) {
            super(new CycleGuard());
            setClassLoader(loader);
            setRegistrationRequired(false);
            setReferences(true);
            setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
            addDefaultSerializer(UUID.class, new DefaultSerializers.UUIDSerializer());
            register(InvocationHandler.class, new ProxySerializer(), PROXY_REGISTRATION);
            register(WholeJava.class, new WholeJavaSerializer(), WHOLE_JAVA_REGISTRATION);
        }

        /**
         * Java semantics for classes with their own hooks, and for the JDK's private wrappers and views
         * ({@code Collections.unmodifiableList} and the like), which Kryo's generic collection serializers
         * would rebuild as plain collections or cannot rebuild at all. Decided before Kryo's defaults, which
         * match those wrappers as collections; the JDK's private classes Kryo has serializers of its own for
         * keep them.
         */
        @Override
        public Serializer getDefaultSerializer(Class type) {
            boolean javaSemantics = isJdkClass(type) ? kryoCannotRebuild(type) : declaresSerializationHooks(type);
            return javaSemantics ? javaHooks : super.getDefaultSerializer(type);
        }

        /** Reached only when Kryo has no serializer for the type: its field copy cannot reach into java.base. */
        @Override
        protected Serializer newDefaultSerializer(Class type) {
            return isJdkClass(type) && Serializable.class.isAssignableFrom(type) ? javaHooks
                    : super.newDefaultSerializer(type);
        }
    }

    /** The JDK's private collection classes, and {@code EnumMap}, whose key type Kryo's map serializer loses. */
    private static boolean kryoCannotRebuild(Class<?> type) {
        if (type == EnumMap.class) {
            return true;
        }
        String name = type.getName();
        return (Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type))
                && Serializable.class.isAssignableFrom(type) && name.indexOf('$') >= 0
                && KRYO_HANDLED_JDK_PRIVATE_COLLECTIONS.stream().noneMatch(name::startsWith);
    }

    private static boolean isJdkClass(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    /**
     * Kryo's field copy would silently skip these hooks, so transient state they rebuild would be lost.
     * Hooks inherited from a JDK class count too: a subclass of {@code LinkedHashMap} would otherwise go
     * through Kryo's map serializer, which loses its own fields and the map's access order.
     */
    private static boolean declaresSerializationHooks(Class<?> type) {
        if (!Serializable.class.isAssignableFrom(type) || type.isEnum() || type.isArray() || type.isRecord()) {
            return false;
        }
        if (Externalizable.class.isAssignableFrom(type)) {
            return true;
        }
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            if (declares(c, "writeObject", ObjectOutputStream.class) || declares(c, "readObject", ObjectInputStream.class)
                    || declares(c, "writeReplace") || declares(c, "readResolve")) {
                return true;
            }
        }
        return false;
    }

    private static boolean declares(Class<?> type, String method, Class<?>... parameters) {
        try {
            type.getDeclaredMethod(method, parameters);
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * Notices a reference back to an object whose Java-semantics write has not finished: on reading,
     * that object does not exist yet when its nested objects are read, so the cycle would come back
     * as null. Such a value is written wholly with Java serialization instead.
     */
    static final class CycleGuard extends MapReferenceResolver {
        private final Set<Object> javaWritesInProgress = Collections.newSetFromMap(new IdentityHashMap<>());

        @Override
        public int getWrittenId(Object object) {
            int id = super.getWrittenId(object);
            if (id != -1 && javaWritesInProgress.contains(object)) {
                throw new CycleThroughJavaHooks();
            }
            return id;
        }

        @Override
        public void reset() {
            super.reset();
            javaWritesInProgress.clear();
        }

        static void writing(Kryo kryo, Object object, Runnable write) {
            CycleGuard guard = (CycleGuard) kryo.getReferenceResolver();
            guard.javaWritesInProgress.add(object);
            try {
                write.run();
            } finally {
                guard.javaWritesInProgress.remove(object);
            }
        }
    }

    private static final class CycleThroughJavaHooks extends KryoException {
        CycleThroughJavaHooks() {
            super("a reference back to an object written with Java serialization semantics");
        }
    }

    /** An attribute value written wholly with Java serialization (see {@link CycleGuard}). */
    private static final class WholeJava {
        private final Object value;

        WholeJava(Object value) {
            this.value = value;
        }
    }

    private static final class WholeJavaSerializer extends Serializer<WholeJava> {
        @Override
        public void write(Kryo kryo, Output output, WholeJava whole) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            try (ObjectOutputStream java = new ObjectOutputStream(bytes)) {
                java.writeObject(whole.value);
            } catch (IOException e) {
                throw new KryoException("Java serialization failed: " + e, e);
            }
            output.writeVarInt(bytes.size(), true);
            output.writeBytes(bytes.toByteArray());
        }

        @Override
        public WholeJava read(Kryo kryo, Input input, Class<? extends WholeJava> type) {
            byte[] bytes = input.readBytes(BoundedInput.count(input));
            try (ObjectInputStream java = new WebappObjectInputStream(new ByteArrayInputStream(bytes), kryo.getClassLoader())) {
                return new WholeJava(java.readObject());
            } catch (IOException | ClassNotFoundException e) {
                throw new KryoException("Java deserialization failed: " + e, e);
            }
        }
    }
}
