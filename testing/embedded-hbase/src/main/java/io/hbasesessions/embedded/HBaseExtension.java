package io.hbasesessions.embedded;

import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives tests a real HBase: {@code @ExtendWith(HBaseExtension.class)}, then declare parameters of
 * test or lifecycle methods (static {@code @BeforeAll} too) of these types:
 * <ul>
 *   <li>{@link EmbeddedHBase}: the server shared by every test class of this JVM, and under Maven by
 *       every test JVM of the build ({@link BuildHBase}). Do not stop it; a test that stops HBase builds an
 *       {@code EmbeddedHBase} of its own.</li>
 *   <li>{@link TestNamespace}: the namespace of this test class on the shared server, for its tables.</li>
 *   <li>{@link Configuration}: a new client configuration for the shared server.</li>
 * </ul>
 * Under Maven (the parent pom sets {@value BuildHBase#DIRECTORY_PROPERTY}), the build's server is started by
 * the first test JVM that needs it and ends with the Maven process. Otherwise the server starts when a
 * parameter first needs it, under {@code target/embedded-hbase-<random>} (or a temporary directory outside
 * a Maven module), and stops and is deleted when the test run of the JVM ends.
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

    /** JUnit closes a server of this JVM when the root context closes, at the end of the JVM's test run. */
    private static EmbeddedHBase sharedServer(ExtensionContext context) {
        ExtensionContext.Store store = context.getRoot().getStore(STORE);
        return store.getOrComputeIfAbsent(EmbeddedHBase.class, key -> BuildHBase.findOrStart()
                .orElseGet(() -> (EmbeddedHBase) store.getOrComputeIfAbsent(TestServers.Started.class,
                        started -> TestServers.start(directory -> EmbeddedHBase.builder().dataDirectory(directory).build()),
                        TestServers.Started.class).hbase()), EmbeddedHBase.class);
    }

    /** Kept in the root store, so every test class of the JVM gets the same one. */
    private static TestNamespace namespaceOf(Class<?> testClass, ExtensionContext context) {
        EmbeddedHBase server = sharedServer(context);
        return context.getRoot().getStore(STORE).getOrComputeIfAbsent("namespace:" + testClass.getName(),
                key -> TestServers.createNamespace(server, TestNamespace.newName(testClass)), TestNamespace.class);
    }
}
