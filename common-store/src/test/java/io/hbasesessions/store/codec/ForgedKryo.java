package io.hbasesessions.store.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import java.io.Serializable;

/**
 * What someone who can write the sessions table writes: any value, in the Kryo wire format the store reads
 * (class names, references, the serializer the store picks for each class), made without any of the store's
 * class rules, which keep the store itself from writing such a value.
 */
public final class ForgedKryo {

    private ForgedKryo() {
    }

    /** The bytes of an attribute whose value is {@code value}, as the store's Kryo codec would read them. */
    public static byte[] encode(Object value) {
        Output output = new Output(512, -1);
        new Forger().writeClassAndObject(output, value);
        return output.toBytes();
    }

    private static final class Forger extends Kryo {
        private final JavaHooksSerializer javaHooks = new JavaHooksSerializer();

        Forger() {
            super(new DefaultClassResolver(), new KryoCodec.CycleGuard());
            KryoCodec.configureWireFormat(this);
        }

        @Override
        public Serializer getDefaultSerializer(Class type) {
            return KryoCodec.needsJavaSemantics(type) ? javaHooks : super.getDefaultSerializer(type);
        }

        @Override
        protected Serializer newDefaultSerializer(Class type) {
            return ClassRules.isJdkClass(type) && Serializable.class.isAssignableFrom(type) ? javaHooks
                    : super.newDefaultSerializer(type);
        }
    }
}
