package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The import rules of docs/architecture.md, checked on the sources of every build. */
class ArchitectureTest {

    private static final Path ROOT = Path.of("..");
    private static final String HBASE = "import org.apache.hadoop.";
    /** The classes of common-store that may talk to HBase: everything else is plain rules. */
    private static final Set<String> HBASE_ACCESS = Set.of("HBaseSessionRows.java", "CallCoalescer.java",
            "HBaseUserIndex.java", "HBaseExpiryIndex.java", "SessionTables.java", "HBaseSessions.java", "HBaseCalls.java",
            "HBaseClientConfiguration.java", "SharedConnections.java", "HBaseClientThreads.java",
            // The admin command line's HBase side: region metrics and raw scans for its statistics.
            "HBaseStoreAdministration.java");

    @Test
    void noAdapterImportsAnHBaseType() {
        assertEquals(List.of(), filesImporting(ROOT.resolve("tomcat-manager/src/main"), HBASE));
        assertEquals(List.of(), filesImporting(ROOT.resolve("jetty-session-datastore/src/main"), HBASE));
        assertEquals(List.of(), filesImporting(ROOT.resolve("shiro-session-dao/src/main"), HBASE));
        for (String springBoot : List.of("spring-boot-support", "spring-boot3-autoconfigure", "spring-boot4-autoconfigure",
                "spring-boot-sample")) {
            assertEquals(List.of(), filesImporting(ROOT.resolve("spring-boot").resolve(springBoot).resolve("src/main"), HBASE));
        }
    }

    @Test
    void onlyTheHBaseAccessClassesOfTheStoreImportHBase() {
        List<String> importing = filesImporting(ROOT.resolve("common-store/src/main"), HBASE).stream()
                .filter(file -> !HBASE_ACCESS.contains(Path.of(file).getFileName().toString())).toList();
        assertEquals(List.of(), importing);
    }

    @Test
    void theStoreImportsNoContainerType() {
        Path store = ROOT.resolve("common-store/src/main");
        for (String container : List.of("import org.apache.catalina.", "import org.eclipse.jetty.", "import jakarta.servlet.",
                "import org.apache.shiro.")) {
            assertEquals(List.of(), filesImporting(store, container), container);
        }
    }

    private static List<String> filesImporting(Path sources, String prefix) {
        try (Stream<Path> files = Files.walk(sources)) {
            return files.filter(file -> file.toString().endsWith(".java"))
                    .filter(file -> contains(file, prefix))
                    .map(Path::toString).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean contains(Path file, String text) {
        try {
            return Files.readString(file).contains(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
