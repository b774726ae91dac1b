package io.hbasesessions.store.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;

/**
 * Dynamic proxies ({@code java.lang.reflect.Proxy}): their class is generated, so it is written as its
 * interfaces, and the invocation handler through Kryo like any other object. On reading, the proxy
 * class is defined again by the web application's loader, the only one that sees its interfaces.
 * Kryo writes every proxy under the registration of {@link InvocationHandler}. A handler that refers
 * back to its proxy makes the whole value go through Java serialization (see {@link KryoCodec.CycleGuard}).
 */
final class ProxySerializer extends Serializer<Object> {

    @Override
    public void write(Kryo kryo, Output output, Object proxy) {
        Class<?>[] interfaces = proxy.getClass().getInterfaces();
        output.writeVarInt(interfaces.length, true);
        for (Class<?> type : interfaces) {
            kryo.writeClass(output, type);
        }
        // The proxy exists on reading only once its handler is read: a handler holding the proxy is a cycle.
        KryoCodec.CycleGuard.writing(kryo, proxy, () -> kryo.writeClassAndObject(output, Proxy.getInvocationHandler(proxy)));
    }

    @Override
    public Object read(Kryo kryo, Input input, Class<? extends Object> type) {
        Class<?>[] interfaces = new Class<?>[BoundedInput.count(input)];
        for (int i = 0; i < interfaces.length; i++) {
            interfaces[i] = kryo.readClass(input).getType();
        }
        if (!(kryo.readClassAndObject(input) instanceof InvocationHandler handler)) {
            throw new KryoException("a proxy without an invocation handler");
        }
        return Proxy.newProxyInstance(kryo.getClassLoader(), interfaces, handler);
    }
}
