package io.hbasesessions.testapp.hard;

import java.io.Serializable;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/** The state behind a {@link Greeter} proxy: a name and a call count. */
public final class GreeterHandler implements InvocationHandler, Serializable {
    private static final long serialVersionUID = 1L;

    private final String name;
    private int calls;
    /** Set only by {@link #newSelfReferencingGreeter}: the handler refers back to its own proxy. */
    private Greeter self;

    private GreeterHandler(String name) {
        this.name = name;
    }

    /** A proxy defined by {@code loader}, the webapp's: the JDK's loaders do not see {@link Greeter}. */
    public static Greeter newGreeter(String name, ClassLoader loader) {
        return (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, new GreeterHandler(name));
    }

    /** A proxy whose handler holds the proxy: the graph is a cycle through a generated class. */
    public static Greeter newSelfReferencingGreeter(String name, ClassLoader loader) {
        GreeterHandler handler = new GreeterHandler(name);
        Greeter greeter = (Greeter) Proxy.newProxyInstance(loader, new Class<?>[] {Greeter.class}, handler);
        handler.self = greeter;
        return greeter;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        return switch (method.getName()) {
            case "greet" -> "hello " + name + " #" + ++calls;
            case "calls" -> calls;
            case "self" -> self;
            case "toString" -> "Greeter(" + name + ", calls=" + calls + ")";
            case "hashCode" -> System.identityHashCode(proxy);
            case "equals" -> proxy == args[0];
            default -> throw new UnsupportedOperationException(method.getName());
        };
    }
}
