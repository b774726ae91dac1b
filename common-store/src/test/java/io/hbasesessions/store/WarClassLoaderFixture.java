package io.hbasesessions.store;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Compiles a class at test time into its own directory and loads it through a class loader that
 * the test classpath cannot see, as a class inside a web application's WAR would be.
 */
public final class WarClassLoaderFixture {

    private WarClassLoaderFixture() {
    }

    /** A loader holding {@code war.CartItem(String name, int quantity)}, Serializable, with a readable toString. */
    public static URLClassLoader cartItemLoader(Path workDirectory) throws IOException {
        Path sources = Files.createDirectories(workDirectory.resolve("src/war"));
        Path classes = Files.createDirectories(workDirectory.resolve("classes"));
        Path source = sources.resolve("CartItem.java");
        Files.writeString(source, """
                package war;
                public class CartItem implements java.io.Serializable {
                    private final String name;
                    private int quantity;
                    public CartItem(String name, int quantity) { this.name = name; this.quantity = quantity; }
                    public void add(int more) { quantity += more; }
                    @Override public String toString() { return name + " x" + quantity; }
                }
                """);
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(null, null, null, "-d", classes.toString(), source.toString());
        if (status != 0) {
            throw new IllegalStateException("javac failed with status " + status);
        }
        return new URLClassLoader(new URL[] {classes.toUri().toURL()}, ClassLoader.getPlatformClassLoader());
    }

    public static Object newCartItem(ClassLoader loader, String name, int quantity) throws ReflectiveOperationException {
        return loader.loadClass("war.CartItem").getConstructor(String.class, int.class).newInstance(name, quantity);
    }
}
