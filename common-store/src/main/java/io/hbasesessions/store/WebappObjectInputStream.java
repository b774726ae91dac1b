package io.hbasesessions.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Proxy;

/**
 * Java deserialization that resolves classes, and the interfaces of dynamic proxies, with the web
 * application's class loader: attribute classes usually exist only inside the WAR.
 */
class WebappObjectInputStream extends ObjectInputStream {

    private final ClassLoader loader;

    WebappObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
        super(in);
        this.loader = loader;
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass description) throws IOException, ClassNotFoundException {
        try {
            return Class.forName(description.getName(), false, loader);
        } catch (ClassNotFoundException e) {
            // Primitive types, and classes of this library the web application cannot see.
            return super.resolveClass(description);
        }
    }

    // ObjectInputStream's own contract hands back a proxy class, not an instance, so the deprecated
    // class-returning factory is the one that fits (the JDK's ObjectInputStream uses it too).
    @SuppressWarnings("deprecation")
    @Override
    protected Class<?> resolveProxyClass(String[] interfaceNames) throws IOException, ClassNotFoundException {
        Class<?>[] interfaces = new Class<?>[interfaceNames.length];
        for (int i = 0; i < interfaceNames.length; i++) {
            interfaces[i] = Class.forName(interfaceNames[i], false, loader);
        }
        try {
            return Proxy.getProxyClass(loader, interfaces);
        } catch (IllegalArgumentException e) {
            throw new ClassNotFoundException("cannot define a proxy of " + String.join(", ", interfaceNames), e);
        }
    }
}
