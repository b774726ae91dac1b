package io.hbasesessions.store.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.StringArraySerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;

/**
 * One of Kryo's serializers that size what they create by the element count they read first
 * ({@code new ArrayList(count)}, {@code new HashMap(count)}, {@code new Object[count]}), with that count
 * checked against the value's budget ({@link BoundedInput#claimElements}) before they read it.
 */
final class ElementCountCheck extends Serializer<Object> {

    private final Serializer<Object> serializer;
    /** Collections write their count with a flag bit beside it (whether elements may be null); maps and arrays plainly. */
    private final boolean flagged;

    private ElementCountCheck(Serializer<Object> serializer, boolean flagged) {
        super(serializer.getAcceptsNull(), serializer.isImmutable());
        this.serializer = serializer;
        this.flagged = flagged;
    }

    /** {@code serializer} with its count checked, if it is one that sizes by a count; otherwise itself. */
    @SuppressWarnings("unchecked")
    static Serializer<?> around(Serializer<?> serializer) {
        Serializer<Object> any = (Serializer<Object>) serializer;
        if (serializer instanceof CollectionSerializer) {
            return new ElementCountCheck(any, true);
        }
        if (serializer instanceof MapSerializer || serializer instanceof ObjectArraySerializer
                || serializer instanceof StringArraySerializer) {
            return new ElementCountCheck(any, false);
        }
        return serializer;
    }

    @Override
    public void write(Kryo kryo, Output output, Object object) {
        serializer.write(kryo, output, object);
    }

    @Override
    public Object read(Kryo kryo, Input input, Class<?> type) {
        int start = input.position();
        // The count is written plus one: zero stands for null.
        int countPlusOne = flagged ? input.readVarIntFlag(true) : input.readVarInt(true);
        input.setPosition(start);
        if (countPlusOne > 1) {
            BoundedInput.claimElements(input, countPlusOne - 1);
        }
        return serializer.read(kryo, input, type);
    }

    @Override
    public Object copy(Kryo kryo, Object original) {
        return serializer.copy(kryo, original);
    }
}
