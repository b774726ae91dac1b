package io.hbasesessions.store.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.DefaultSerializers;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.MapReferenceResolver;
import com.esotericsoftware.kryo.util.Pool;
import com.esotericsoftware.kryo.util.Util;
import io.hbasesessions.store.SerializerKind;
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
import java.util.Optional;
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
    /** Kryo's mark, where a class is written, that its name follows (DefaultClassResolver.NAME + 2). */
    private static final int NAME_FOLLOWS = 1;
    /** JDK-private collections Kryo has its own serializers for (they write their elements through Kryo). */
    private static final List<String> KRYO_HANDLED_JDK_PRIVATE_COLLECTIONS = List.of("java.util.ImmutableCollections$",
            "java.util.Collections$Empty", "java.util.Collections$Singleton");

    private final ClassRules rules;
    private final ReadLimits limits;
    private final Pool<Kryo> pool = new Pool<>(true, true, POOL_CAPACITY) {
        @Override
        protected Kryo create() {
            return new SessionKryo(rules, limits);
        }
    };

    KryoCodec(ClassRules rules, ReadLimits limits) {
        this.rules = rules;
        this.limits = limits;
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
            throw new CodecException("Kryo serialization failed: " + CodecException.firstLine(e), e);
        }
    }

    @Override
    public Object decode(byte[] bytes) {
        SessionKryo kryo = (SessionKryo) pool.obtain();
        try {
            Object value = kryo.decode(bytes);
            pool.free(kryo);
            return value instanceof WholeJava whole ? whole.value : value;
        } catch (Throwable e) {
            // Anything, Errors included (a value's own readObject, a refused class or claim): this value only.
            throw CodecException.readFailure("Kryo", e);
        }
    }

    /** The first class of the bytes: a name (a class Kryo does not know by id), or a registration's. */
    @Override
    public Optional<String> className(byte[] bytes) {
        Input input = new Input(bytes);
        try {
            int classId = input.readVarInt(true);
            if (classId == Kryo.NULL) {
                return Optional.of("null");
            }
            if (classId == NAME_FOLLOWS) {
                input.readVarInt(true);
                return Optional.of(input.readString());
            }
            Kryo kryo = pool.obtain();
            try {
                Registration registration = kryo.getRegistration(classId - 2);
                return Optional.ofNullable(registration).map(found -> switch (found.getId()) {
                    case PROXY_REGISTRATION -> "a dynamic proxy";
                    case WHOLE_JAVA_REGISTRATION -> "a value written with Java serialization";
                    default -> found.getType().getName();
                });
            } finally {
                pool.free(kryo);
            }
        } catch (KryoException e) {
            return Optional.empty();
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


    /**
     * A Kryo for session values: classes resolved through {@link CheckingClassResolver}, the counts that
     * size collections checked ({@link ElementCountCheck}), and every object read measured
     * ({@link Unfolding}) and kept within {@link ReadLimits#MAX_DEPTH}.
     */
    static final class SessionKryo extends Kryo {
        private final JavaHooksSerializer javaHooks = new JavaHooksSerializer();
        private final ReadLimits limits;
        /** The measure of the value being decoded; null between decodes. */
        private Unfolding unfolding;

        SessionKryo(ClassRules rules, ReadLimits limits) {
            super(new CheckingClassResolver(rules), new CycleGuard());
            this.limits = limits;
            setClassLoader(rules.applicationLoader());
            configureWireFormat(this);
        }

        Object decode(byte[] bytes) {
            BoundedInput input = new BoundedInput(bytes, limits);
            unfolding = new Unfolding(limits.unfoldingBudget(bytes.length));
            ((CheckingClassResolver) getClassResolver()).nextClassIsTheAttributeValues();
            try {
                return readClassAndObject(input);
            } finally {
                unfolding = null;
            }
        }

        ClassRules rules() {
            return ((CheckingClassResolver) getClassResolver()).rules;
        }

        ReadLimits limits() {
            return limits;
        }

        Unfolding unfolding() {
            return unfolding;
        }

        /**
         * Java semantics for classes with their own hooks, and for the JDK's private wrappers and views
         * ({@code Collections.unmodifiableList} and the like), which Kryo's generic collection serializers
         * would rebuild as plain collections or cannot rebuild at all. Decided before Kryo's defaults, which
         * match those wrappers as collections; the JDK's private classes Kryo has serializers of its own for
         * keep them, with the counts they size by checked.
         */
        @Override
        public Serializer getDefaultSerializer(Class type) {
            String refusal = rules().refusalToInstantiate(type);
            if (refusal != null) {
                return new RefusedClassSerializer(refusal);
            }
            return needsJavaSemantics(type) ? javaHooks : ElementCountCheck.around(super.getDefaultSerializer(type));
        }

        /** Reached only when Kryo has no serializer for the type: its field copy cannot reach into java.base. */
        @Override
        protected Serializer newDefaultSerializer(Class type) {
            return ClassRules.isJdkClass(type) && Serializable.class.isAssignableFrom(type) ? javaHooks
                    : super.newDefaultSerializer(type);
        }

        // Every way Kryo reads an object: each is kept within the depth and measured as it comes back.

        @Override
        public Object readClassAndObject(Input input) {
            checkDepth();
            return measured(super.readClassAndObject(input));
        }

        @Override
        public <T> T readObject(Input input, Class<T> type) {
            checkDepth();
            return measured(super.readObject(input, type));
        }

        @Override
        public <T> T readObject(Input input, Class<T> type, Serializer serializer) {
            checkDepth();
            return measured(super.readObject(input, type, serializer));
        }

        @Override
        public <T> T readObjectOrNull(Input input, Class<T> type) {
            checkDepth();
            return measured(super.readObjectOrNull(input, type));
        }

        @Override
        public <T> T readObjectOrNull(Input input, Class<T> type, Serializer serializer) {
            checkDepth();
            return measured(super.readObjectOrNull(input, type, serializer));
        }

        private void checkDepth() {
            if (getDepth() >= ReadLimits.MAX_DEPTH) {
                throw new DecodingRefusedException("objects nested deeper than " + ReadLimits.MAX_DEPTH);
            }
        }

        private <T> T measured(T object) {
            if (unfolding != null) {
                if (((CycleGuard) getReferenceResolver()).tookBackReference()) {
                    unfolding.referencedAgain(object);
                } else {
                    unfolding.completed(object);
                }
            }
            return object;
        }
    }

    /**
     * Resolves the class names in stored bytes: each is checked by {@link ClassRules} before it is
     * loaded (Kryo's own resolver would also fall back to the loader Kryo itself comes from: the
     * server's). The first class a value names is the attribute value's own; that of a value Kryo has
     * a registration for (a {@code String}, an {@code Integer}) is checked once it is known, before
     * anything is read for it.
     */
    private static final class CheckingClassResolver extends DefaultClassResolver {
        private final ClassRules rules;
        private boolean attributeValueNext;
        private boolean readingAttributeValue;

        CheckingClassResolver(ClassRules rules) {
            this.rules = rules;
        }

        void nextClassIsTheAttributeValues() {
            attributeValueNext = true;
        }

        @Override
        public Registration readClass(Input input) {
            readingAttributeValue = attributeValueNext;
            attributeValueNext = false;
            Registration registration = super.readClass(input);
            if (readingAttributeValue && registration != null) {
                readingAttributeValue = false;
                switch (registration.getId()) {
                    // A proxy's class is generated: its first interface stands for it.
                    case PROXY_REGISTRATION -> attributeValueNext = true;
                    // Java serialization checks the value inside.
                    case WHOLE_JAVA_REGISTRATION -> { }
                    default -> admitted(Util.getWrapperClass(registration.getType()).getName(), true);
                }
            }
            readingAttributeValue = false;
            return registration;
        }

        /** Called for each class name read: the rules admit it or refuse it; the class is never looked up elsewhere. */
        @Override
        protected Class getTypeByName(String className) {
            boolean attributeValue = readingAttributeValue;
            readingAttributeValue = false;
            return admitted(className, attributeValue);
        }

        private Class<?> admitted(String className, boolean attributeValue) {
            try {
                return rules.admit(className, attributeValue);
            } catch (ClassNotFoundException e) {
                throw new KryoException("Unable to find class: " + className, e);
            }
        }

        @Override
        public void reset() {
            super.reset();
            attributeValueNext = false;
            readingAttributeValue = false;
        }
    }

    /**
     * What the bytes of every value depend on besides the serializer of each class ({@link #needsJavaSemantics}):
     * class names instead of registrations, references, Objenesis, and the registrations of proxies and of values
     * written wholly with Java serialization.
     */
    static void configureWireFormat(Kryo kryo) {
        kryo.setRegistrationRequired(false);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        kryo.addDefaultSerializer(UUID.class, new DefaultSerializers.UUIDSerializer());
        kryo.register(InvocationHandler.class, new ProxySerializer(), PROXY_REGISTRATION);
        kryo.register(WholeJava.class, new WholeJavaSerializer(), WHOLE_JAVA_REGISTRATION);
    }

    /** Whether objects of {@code type} go through {@link JavaHooksSerializer} rather than one of Kryo's serializers. */
    static boolean needsJavaSemantics(Class<?> type) {
        return ClassRules.isJdkClass(type) ? kryoCannotRebuild(type) : declaresSerializationHooks(type);
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
        private boolean backReference;

        @Override
        public int getWrittenId(Object object) {
            int id = super.getWrittenId(object);
            if (id != -1 && javaWritesInProgress.contains(object)) {
                throw new CycleThroughJavaHooks();
            }
            return id;
        }

        /** Notes that the object being read is one read before: see {@link #tookBackReference()}. */
        @Override
        public Object getReadObject(Class type, int id) {
            backReference = true;
            return super.getReadObject(type, id);
        }

        /** Whether the read that just returned was a reference back to an earlier object; then forgets it. */
        boolean tookBackReference() {
            boolean taken = backReference;
            backReference = false;
            return taken;
        }

        @Override
        public void reset() {
            super.reset();
            javaWritesInProgress.clear();
            backReference = false;
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

    /**
     * Stands for a class whose objects the rules refuse to rebuild (or to write, since no node could read them
     * back); Kryo calls it only when an object of that class is read or written, not for a class named as such
     * (a {@code Class} value, a proxy's interface).
     */
    private static final class RefusedClassSerializer extends Serializer<Object> {
        private final String refusal;

        RefusedClassSerializer(String refusal) {
            this.refusal = refusal;
        }

        @Override
        public void write(Kryo kryo, Output output, Object object) {
            throw new KryoException("cannot be stored: " + refusal);
        }

        @Override
        public Object read(Kryo kryo, Input input, Class<? extends Object> type) {
            throw new DecodingRefusedException(refusal);
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

        /** The value is the Java stream's first object: the attribute value, measured in this value's budget. */
        @Override
        public WholeJava read(Kryo kryo, Input input, Class<? extends WholeJava> type) {
            byte[] bytes = input.readBytes(BoundedInput.count(input));
            SessionKryo session = (SessionKryo) kryo;
            try (WebappObjectInputStream java = new WebappObjectInputStream(bytes, session.rules(), session.limits(),
                    session.unfolding(), true)) {
                return new WholeJava(java.readAttributeValue());
            } catch (IOException | ClassNotFoundException e) {
                throw new KryoException("Java deserialization failed: " + e, e);
            }
        }
    }
}
