package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The import rules of docs/architecture.md, checked on the sources of every build. */
class ArchitectureTest {

    private static final Path ROOT = Path.of("..");
    private static final String HBASE = "import org.apache.hadoop.";
    /** The classes of common-store that may talk to HBase: everything else is plain rules. */
    private static final Set<String> HBASE_ACCESS = Set.of("HBaseSessionRows.java", "CallCoalescer.java",
            "HBaseUserIndex.java", "HBaseExpiryIndex.java", "HBaseChangeFeed.java", "SessionTables.java", "HBaseSessions.java", "HBaseCalls.java",
            "HBaseClientConfiguration.java", "SharedConnections.java", "HBaseClientThreads.java",
            // The admin command line's HBase side: region metrics and raw scans for its statistics.
            "HBaseStoreAdministration.java");

    /**
     * The store's types an adapter may import (docs/architecture.md, "What an adapter may use"); everything
     * else of common-store, and all of its sub-packages, is the store's own.
     */
    static final Set<String> ADAPTER_TYPES = Set.of("SessionStores", "SessionStore", "StoredSession", "SessionRecord",
            "SessionAttributes", "SaveResult", "SessionPrincipal", "Webapp", "Container", "Setting", "StoreSettings",
            "KeyScopes", "SessionIds", "NoteFormat", "FailureResponse", "SessionStoreException",
            "StoreUnavailableException", "StoreConfigurationException", "StoreCounter", "StoreCounters", "StoreOperation",
            "StoreLatencies", "StoreMBean", "OpenStores", "StoreHealth");
    /** The operator's types, for admin-cli only. */
    static final Set<String> OPERATOR_TYPES = Set.of("StoreAdministration", "SessionInspection", "Revocation",
            "IndexSweep", "StoreStats", "TablePlan", "StateProtection");
    /** Public only because a public signature of the types above names them (settings' values, the contract's exceptions). */
    static final Set<String> NAMED_BY_PUBLIC_SIGNATURES = Set.of("ClassNames", "FailMode", "LockingMode", "SerializerKind",
            "TableCompression", "WriteDurability", "IndexedSession", "SessionTooLargeException",
            "UnserializableAttributeException", "SessionConflictException", "SessionAlreadyExistsException");
    /** Where the adapters' own code is (their tests may use the store's test fixtures). */
    private static final List<String> ADAPTERS = List.of("tomcat-manager", "jetty-session-datastore", "shiro-session-dao",
            "micrometer-metrics", "spring-boot/spring-boot-support", "spring-boot/spring-boot3-autoconfigure",
            "spring-boot/spring-boot4-autoconfigure", "spring-boot/spring-boot-sample", "spring-session-hbase");
    private static final Pattern STORE_IMPORT = Pattern.compile("^import (?:static )?io\\.hbasesessions\\.store\\.([\\w.]+);",
            Pattern.MULTILINE);

    @Test
    void adaptersImportOnlyTheTypesListedForThem() {
        for (String adapter : ADAPTERS) {
            assertEquals(Set.of(), importedStoreTypesOutside(ROOT.resolve(adapter).resolve("src/main"), ADAPTER_TYPES),
                    adapter);
        }
        Set<String> operatorsTool = new TreeSet<>(ADAPTER_TYPES);
        operatorsTool.addAll(OPERATOR_TYPES);
        assertEquals(Set.of(), importedStoreTypesOutside(ROOT.resolve("admin-cli/src/main"), operatorsTool));
    }

    @Test
    void theListOfTypesAnAdapterMayUseIsTheOneInTheArchitectureDocument() throws IOException {
        String document = Files.readString(ROOT.resolve("docs/architecture.md"));
        String section = document.substring(document.indexOf("## What an adapter may use"));
        section = section.substring(0, section.indexOf("\n## ", 1));
        Set<String> listed = Pattern.compile("^\\| `(\\w+)`", Pattern.MULTILINE).matcher(section).results()
                .map(match -> match.group(1)).collect(Collectors.toCollection(TreeSet::new));
        Set<String> allowed = new TreeSet<>(ADAPTER_TYPES);
        allowed.addAll(OPERATOR_TYPES);
        assertEquals(allowed, listed);
    }

    @Test
    void theStoresPublicTypesAreTheListedOnes() throws IOException {
        Pattern publicType = Pattern.compile("^public (?:final |abstract |sealed )*(?:class|interface|enum|record) ",
                Pattern.MULTILINE);
        Set<String> publicTypes = new TreeSet<>();
        try (Stream<Path> files = Files.list(ROOT.resolve("common-store/src/main/java/io/hbasesessions/store"))) {
            files.filter(file -> file.toString().endsWith(".java") && publicType.matcher(read(file)).find())
                    .forEach(file -> publicTypes.add(file.getFileName().toString().replace(".java", "")));
        }
        Set<String> listed = new TreeSet<>(ADAPTER_TYPES);
        listed.addAll(OPERATOR_TYPES);
        listed.addAll(NAMED_BY_PUBLIC_SIGNATURES);
        assertEquals(listed, publicTypes);
    }

    /** Each import of the store in {@code sources} that is not of one of {@code allowed} (a sub-package's never is). */
    private static Set<String> importedStoreTypesOutside(Path sources, Set<String> allowed) {
        Set<String> refused = new TreeSet<>();
        for (String file : filesImporting(sources, "io.hbasesessions.store.")) {
            Matcher imports = STORE_IMPORT.matcher(read(Path.of(file)));
            while (imports.find()) {
                String type = imports.group(1).split("\\.")[0];
                if (!allowed.contains(type)) {
                    refused.add(Path.of(file).getFileName() + ": " + imports.group(1));
                }
            }
        }
        return refused;
    }

    @Test
    void noAdapterImportsAnHBaseType() {
        assertEquals(List.of(), filesImporting(ROOT.resolve("tomcat-manager/src/main"), HBASE));
        assertEquals(List.of(), filesImporting(ROOT.resolve("jetty-session-datastore/src/main"), HBASE));
        assertEquals(List.of(), filesImporting(ROOT.resolve("shiro-session-dao/src/main"), HBASE));
        assertEquals(List.of(), filesImporting(ROOT.resolve("spring-session-hbase/src/main"), HBASE));
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
                "import org.apache.shiro.", "import org.springframework.")) {
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
        return read(file).contains(text);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
