package io.hbasesessions.store;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.Pool;
import java.io.Externalizable;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.UUID;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * Kryo 5 with the settings that survive real session attributes on JDK 17: no registration,
 * references on, Objenesis for classes without a no-arg constructor, and Java serialization
 * wherever Kryo's field-by-field copy would be wrong (classes with their own serialization hooks)
 * or fails (the JDK's private collection wrappers).
 */
final class KryoCodec implements SessionCodec {

    private static final int POOL_CAPACITY = 64;
    private static final int INITIAL_BUFFER_BYTES = 512;

    private final Pool<Kryo> pool = new Pool<>(true, true, POOL_CAPACITY) {
        @Override
        protected Kryo create() {
            return new SessionKryo();
        }
    };

    @Override
    public SerializerKind kind() {
        return SerializerKind.KRYO;
    }

    @Override
    public byte[] encode(Object value) {
        Kryo kryo = pool.obtain();
        try {
            Output output = new Output(INITIAL_BUFFER_BYTES, -1);
            kryo.writeClassAndObject(output, value);
            return output.toBytes();
        } catch (KryoException | IllegalArgumentException | UnsupportedOperationException | SecurityException e) {
            throw new CodecException("Kryo serialization failed: " + e.getMessage(), e);
        } finally {
            pool.free(kryo);
        }
    }

    @Override
    public Object decode(byte[] bytes, ClassLoader loader) {
        Kryo kryo = kryoFor(loader);
        try {
            return kryo.readClassAndObject(new Input(bytes));
        } catch (KryoException | IllegalArgumentException | UnsupportedOperationException | IndexOutOfBoundsException e) {
            throw new CodecException(describeReadFailure(e), e);
        } finally {
            pool.free(kryo);
        }
    }

    /**
     * Kryo caches classes by name for the life of an instance, so an instance that resolved names
     * through another loader would hand back that loader's classes: such an instance is replaced.
     */
    private Kryo kryoFor(ClassLoader loader) {
        Kryo kryo = pool.obtain();
        if (kryo.getClassLoader() != loader) {
            kryo = new SessionKryo();
            kryo.setClassLoader(loader);
        }
        return kryo;
    }

    private static String describeReadFailure(RuntimeException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ClassNotFoundException) {
                return "class not found: " + cause.getMessage();
            }
        }
        return "Kryo deserialization failed: " + e.getMessage();
    }

    private static final class SessionKryo extends Kryo {
        private final JavaSerializer javaSerializer = new JavaSerializer();

        SessionKryo() {
            setRegistrationRequired(false);
            setReferences(true);
            setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
            addDefaultSerializer(UUID.class, new DefaultSerializers.UUIDSerializer());
        }

        /** Chosen before Kryo's own defaults, which would match the JDK wrappers as plain collections. */
        @Override
        public Serializer getDefaultSerializer(Class type) {
            if (isJdkClass(type) ? isJdkImplementationDetail(type) : declaresSerializationHooks(type)) {
                return javaSerializer;
            }
            return super.getDefaultSerializer(type);
        }

        /** Reached only when Kryo has no serializer of its own for the type. */
        @Override
        protected Serializer newDefaultSerializer(Class type) {
            if (isJdkClass(type) && Serializable.class.isAssignableFrom(type)) {
                return javaSerializer;
            }
            return super.newDefaultSerializer(type);
        }
    }

    private static boolean isJdkClass(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == null || loader == ClassLoader.getPlatformClassLoader();
    }

    /** {@code Collections$UnmodifiableMap}, {@code Arrays$ArrayList}, {@code ImmutableCollections$ListN}... */
    private static boolean isJdkImplementationDetail(Class<?> type) {
        return Serializable.class.isAssignableFrom(type) && type.getName().indexOf('$') >= 0 && !type.isEnum()
                && !type.isArray();
    }

    /** Kryo's field copy would silently skip these hooks, so transient state they rebuild would be lost. */
    private static boolean declaresSerializationHooks(Class<?> type) {
        if (!Serializable.class.isAssignableFrom(type) || type.isEnum() || type.isArray()) {
            return false;
        }
        if (Externalizable.class.isAssignableFrom(type)) {
            return true;
        }
        for (Class<?> c = type; c != null && !isJdkClass(c); c = c.getSuperclass()) {
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
}
