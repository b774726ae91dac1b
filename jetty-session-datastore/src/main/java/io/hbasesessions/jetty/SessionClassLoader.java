package io.hbasesessions.jetty;

/**
 * The loader attribute classes are resolved with: the web application's first, then Jetty's. A
 * webapp loader hides Jetty's own classes, yet some session attributes are Jetty's (the FORM login's
 * {@code SessionAuthentication}); Jetty's own serializer falls back to its server loader the same way.
 */
final class SessionClassLoader extends ClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader serverLoader;

    SessionClassLoader(ClassLoader webappLoader, ClassLoader serverLoader) {
        super(webappLoader);
        this.serverLoader = serverLoader;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        return serverLoader.loadClass(name);
    }
}
