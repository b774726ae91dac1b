package io.hbasesessions.store;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles classes at test time into their own directory and loads them through a class loader that
 * the test classpath cannot see, as classes inside a web application's WAR would be.
 */
public final class WarClassLoaderFixture {

    private static final String CART_ITEM = """
            package war;
            public class CartItem implements java.io.Serializable {
                private final String name;
                private int quantity;
                public CartItem(String name, int quantity) { this.name = name; this.quantity = quantity; }
                public void add(int more) { quantity += more; }
                @Override public String toString() { return name + " x" + quantity; }
            }
            """;
    private static final String GREETER = """
            package war;
            public interface Greeter { String greet(String name); }
            """;
    private static final String GREETER_HANDLER = """
            package war;
            public class GreeterHandler implements java.lang.reflect.InvocationHandler, java.io.Serializable {
                private final String greeting;
                public GreeterHandler(String greeting) { this.greeting = greeting; }
                @Override public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) {
                    return "toString".equals(method.getName()) ? "Greeter(" + greeting + ")" : greeting + ", " + args[0];
                }
            }
            """;

    /**
     * What a gadget does, recorded where the test sees it whichever loader defined the class: its class
     * initialised, an instance made, its readObject, readResolve or hashCode run.
     */
    private static final String MARKS = """
                static { war.Marks.mark("class initialised"); }
                public %1$s() { war.Marks.mark("instantiated"); }
                private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
                    war.Marks.mark("readObject");
                    in.defaultReadObject();
                }
                private Object readResolve() { war.Marks.mark("readResolve"); return this; }
                @Override public int hashCode() { war.Marks.mark("hashCode"); return 1; }
            """;
    private static final String MARKS_CLASS = """
            package war;
            public final class Marks {
                public static synchronized void mark(String what) {
                    String before = System.getProperty("%s", "");
                    System.setProperty("%s", before.isEmpty() ? what : before + "," + what);
                }
            }
            """.formatted(WarClassLoaderFixture.MARKS_PROPERTY, WarClassLoaderFixture.MARKS_PROPERTY);
    public static final String MARKS_PROPERTY = "hbase-sessions.test.gadget-marks";
    /** Named as the Commons Collections transformer that ysoserial's chains end in: on the built-in deny list. */
    public static final String DENIED_GADGET = "org.apache.commons.collections4.functors.InvokerTransformer";
    /** A Serializable class with readObject and readResolve, on no deny list: what an attribute class filter refuses. */
    public static final String GADGET = "war.Gadget";
    private static final String GADGET_SOURCE = """
            package war;
            public class Gadget implements java.io.Serializable {
                public String payload = "calc";
            %s}
            """.formatted(MARKS.formatted("Gadget"));
    private static final String DENIED_GADGET_SOURCE = """
            package org.apache.commons.collections4.functors;
            public class InvokerTransformer implements java.io.Serializable {
                public String methodName = "exec";
            %s}
            """.formatted(MARKS.formatted("InvokerTransformer"));
    /** Not Serializable, no no-arg constructor: only Kryo (with Objenesis) makes one, and a HashMap hashes it. */
    public static final String UNHASHABLE = "war.Unhashable";
    private static final String UNHASHABLE_SOURCE = """
            package war;
            public class Unhashable {
                private final String name;
                public Unhashable(String name) { war.Marks.mark("instantiated"); this.name = name; }
                @Override public int hashCode() { war.Marks.mark("hashCode"); return name.hashCode(); }
                @Override public boolean equals(Object o) { return o instanceof Unhashable u && u.name.equals(name); }
            }
            """;

    private WarClassLoaderFixture() {
    }

    /** What the gadget classes recorded since {@link #clearMarks()}: empty if none of their code ran. */
    public static String marks() {
        return System.getProperty(MARKS_PROPERTY, "");
    }

    public static void clearMarks() {
        System.clearProperty(MARKS_PROPERTY);
    }

    /** A new instance of a class of the war (by its no-arg constructor, or one taking a String). */
    public static Object newInstance(ClassLoader war, String className) throws ReflectiveOperationException {
        Class<?> type = war.loadClass(className);
        return className.equals(UNHASHABLE) ? type.getConstructor(String.class).newInstance("key")
                : type.getConstructor().newInstance();
    }

    /** A web application's class loader that remembers which classes it was asked for. */
    public static final class WarLoader extends URLClassLoader {
        private final Map<String, Integer> requested = new ConcurrentHashMap<>();

        WarLoader(URL[] classes, ClassLoader parent) {
            super(classes, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            requested.merge(name, 1, Integer::sum);
            return super.loadClass(name, resolve);
        }

        /** The names of every class it was asked for so far. */
        public Set<String> requested() {
            return Set.copyOf(requested.keySet());
        }

        /** How often it was asked for the class {@code name}. */
        public int timesAskedFor(String name) {
            return requested.getOrDefault(name, 0);
        }

        /** Whether any class was asked for under {@code name}. */
        public boolean wasAskedFor(String name) {
            return requested.containsKey(name);
        }
    }

    /**
     * A loader holding {@code war.CartItem(String name, int quantity)} (Serializable, readable toString),
     * the interface {@code war.Greeter} and its invocation handler {@code war.GreeterHandler(String greeting)},
     * and gadget-like classes that record what of their code runs ({@link #GADGET}, {@link #DENIED_GADGET},
     * {@link #UNHASHABLE}, see {@link #marks()}).
     */
    public static WarLoader warLoader(Path workDirectory) throws IOException {
        return compiled(workDirectory, ClassLoader.getPlatformClassLoader(), Map.of("CartItem", CART_ITEM, "Greeter",
                GREETER, "GreeterHandler", GREETER_HANDLER, "Marks", MARKS_CLASS, "Gadget", GADGET_SOURCE,
                "InvokerTransformer", DENIED_GADGET_SOURCE, "Unhashable", UNHASHABLE_SOURCE));
    }

    /**
     * A web application's loader holding {@code sources} (simple class name to source) compiled against this JVM's
     * class path, on a server whose class path is {@code server}'s: classes of the WAR that use the server's.
     */
    public static WarLoader warOn(Path workDirectory, ClassLoader server, Map<String, String> sources) throws IOException {
        return compiled(workDirectory, server, sources, "-cp", System.getProperty("java.class.path"));
    }

    private static WarLoader compiled(Path workDirectory, ClassLoader parent, Map<String, String> sources,
            String... options) throws IOException {
        Path sourceDirectory = Files.createDirectories(workDirectory.resolve("src/war"));
        Path classes = Files.createDirectories(workDirectory.resolve("classes"));
        List<String> arguments = new ArrayList<>(List.of("-d", classes.toString()));
        arguments.addAll(List.of(options));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = sourceDirectory.resolve(source.getKey() + ".java");
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(null, null, null, arguments.toArray(String[]::new));
        if (status != 0) {
            throw new IllegalStateException("javac failed with status " + status);
        }
        return new WarLoader(new URL[] {classes.toUri().toURL()}, parent);
    }

    /**
     * A web application's loader with no classes of its own, on a server whose class path is {@code server}'s
     * (as Tomcat's and Jetty's web application loaders delegate to the server's loader): what it is asked for
     * is remembered.
     */
    public static WarLoader emptyWarOn(ClassLoader server) {
        return new WarLoader(new URL[0], server);
    }

    public static Object newCartItem(ClassLoader loader, String name, int quantity) throws ReflectiveOperationException {
        return loader.loadClass("war.CartItem").getConstructor(String.class, int.class).newInstance(name, quantity);
    }

    /** A dynamic proxy of {@code war.Greeter}, an interface only {@code loader} can see. */
    public static Object newGreeterProxy(ClassLoader loader, String greeting) throws ReflectiveOperationException {
        Class<?> greeter = loader.loadClass("war.Greeter");
        Object handler = loader.loadClass("war.GreeterHandler").getConstructor(String.class).newInstance(greeting);
        return Proxy.newProxyInstance(loader, new Class<?>[] {greeter}, (java.lang.reflect.InvocationHandler) handler);
    }

    /** Calls {@code greet(name)} on a {@code war.Greeter}. */
    public static String greet(Object greeter, String name) throws ReflectiveOperationException {
        return (String) greeter.getClass().getMethod("greet", String.class).invoke(greeter, name);
    }
}
