package io.hbasesessions.store;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    private WarClassLoaderFixture() {
    }

    /**
     * A loader holding {@code war.CartItem(String name, int quantity)} (Serializable, readable toString),
     * the interface {@code war.Greeter} and its invocation handler {@code war.GreeterHandler(String greeting)}.
     */
    public static URLClassLoader warLoader(Path workDirectory) throws IOException {
        Path sources = Files.createDirectories(workDirectory.resolve("src/war"));
        Path classes = Files.createDirectories(workDirectory.resolve("classes"));
        List<String> arguments = new ArrayList<>(List.of("-d", classes.toString()));
        for (String[] source : new String[][] {{"CartItem", CART_ITEM}, {"Greeter", GREETER},
                {"GreeterHandler", GREETER_HANDLER}}) {
            Path file = sources.resolve(source[0] + ".java");
            Files.writeString(file, source[1]);
            arguments.add(file.toString());
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(null, null, null, arguments.toArray(String[]::new));
        if (status != 0) {
            throw new IllegalStateException("javac failed with status " + status);
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
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
