package io.hbasesessions.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.junit.jupiter.api.extension.ExtensionContext;

/** What the JUnit extensions share: an HBase started for tests on a throw-away directory, and test namespaces. */
final class TestServers {

    private TestServers() {
    }

    /** Starts {@code build}'s HBase on a new data directory; closing it stops HBase and deletes the directory. */
    static <T extends LocalHBase> Started<T> start(Function<Path, T> build) {
        T hbase = build.apply(newDataDirectory());
        hbase.start();
        return new Started<>(hbase);
    }

    static TestNamespace createNamespace(LocalHBase server, String name) {
        try (Connection connection = ConnectionFactory.createConnection(server.clientConfiguration());
                Admin admin = connection.getAdmin()) {
            admin.createNamespace(NamespaceDescriptor.create(name).build());
            return new TestNamespace(name);
        } catch (IOException e) {
            throw new EmbeddedHBaseException("Cannot create the test namespace " + name + " (" + e
                    + "): see the server log " + server.logFile(), e);
        }
    }

    /** Kept in a JUnit store, which closes it when its context closes. */
    static final class Started<T extends LocalHBase> implements ExtensionContext.Store.CloseableResource {

        private final T hbase;

        private Started(T hbase) {
            this.hbase = hbase;
        }

        T hbase() {
            return hbase;
        }

        @Override
        public void close() throws IOException {
            hbase.stop();
            deleteRecursively(hbase.dataDirectory());
        }
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

    static void deleteRecursively(Path root) throws IOException {
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
