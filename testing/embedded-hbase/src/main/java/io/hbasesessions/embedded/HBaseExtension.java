package io.hbasesessions.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real HBase: {@code @ExtendWith(HBaseExtension.class)}, then declare parameters of
 * test or lifecycle methods (static {@code @BeforeAll} too) of these types:
 * <ul>
 *   <li>{@link EmbeddedHBase}: the server shared by every test class of this JVM. Do not stop it; a
 *       test that stops HBase builds an {@code EmbeddedHBase} of its own.</li>
 *   <li>{@link TestNamespace}: the namespace of this test class on the shared server, for its tables.</li>
 *   <li>{@link Configuration}: a new client configuration for the shared server.</li>
 * </ul>
 * The server starts when a parameter first needs it, under {@code target/embedded-hbase-<random>}
 * (or a temporary directory outside a Maven module), and stops and is deleted when the test run of
 * the JVM ends.
 */
public final class HBaseExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(HBaseExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedHBase.class || type == TestNamespace.class || type == Configuration.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == TestNamespace.class) {
            return namespaceOf(context.getRequiredTestClass(), context);
        }
        EmbeddedHBase server = sharedServer(context);
        return type == Configuration.class ? server.clientConfiguration() : server;
    }

    private static EmbeddedHBase sharedServer(ExtensionContext context) {
        return context.getRoot().getStore(STORE)
                .getOrComputeIfAbsent(SharedServer.class, key -> SharedServer.start(), SharedServer.class)
                .hbase;
    }

    /** Kept in the root store, so every test class of the JVM gets the same one. */
    private static TestNamespace namespaceOf(Class<?> testClass, ExtensionContext context) {
        EmbeddedHBase server = sharedServer(context);
        return context.getRoot().getStore(STORE).getOrComputeIfAbsent("namespace:" + testClass.getName(),
                key -> createNamespace(server, TestNamespace.newName(testClass)), TestNamespace.class);
    }

    private static TestNamespace createNamespace(EmbeddedHBase server, String name) {
        try (Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                Admin admin = connection.getAdmin()) {
            admin.createNamespace(NamespaceDescriptor.create(name).build());
            return new TestNamespace(name);
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot create the test namespace " + name + " (" + e
                    + "): see the server log " + server.logFile(), e);
        }
    }

    /** The shared server; JUnit closes it when the root context closes, at the end of the JVM's test run. */
    private static final class SharedServer implements ExtensionContext.Store.CloseableResource {

        private final EmbeddedHBase hbase;

        private SharedServer(EmbeddedHBase hbase) {
            this.hbase = hbase;
        }

        static SharedServer start() {
            EmbeddedHBase hbase = EmbeddedHBase.builder().dataDirectory(newDataDirectory()).build();
            return new SharedServer(hbase.start());
        }

        @Override
        public void close() throws IOException {
            hbase.stop();
            deleteRecursively(hbase.dataDirectory());
        }

        /** Maven runs tests in the module's directory: its target/ is cleaned with the build. */
        private static Path newDataDirectory() {
            try {
                Path target = Path.of("target");
                return Files.isDirectory(target)
                        ? Files.createTempDirectory(target.toAbsolutePath(), "embedded-hbase-")
                        : Files.createTempDirectory("embedded-hbase-");
            } catch (IOException e) {
                throw new EmbeddedHBaseException("Cannot create a data directory for the test HBase (" + e
                        + "): make target/ or the temporary directory writable", e);
            }
        }

        private static void deleteRecursively(Path root) throws IOException {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                    try {
                        Files.delete(path);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
        }
    }
}
