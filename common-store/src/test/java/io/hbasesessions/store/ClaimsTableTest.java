package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** README's claims table names tests that exist: every test class it names, and every test method. */
class ClaimsTableTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern CODE = Pattern.compile("`\\.?([A-Za-z]\\w*)(?:\\.(\\w+))?`");
    private static final Pattern TEST_CLASS = Pattern.compile("[A-Z]\\w*(Test|IT)");
    /** A bare test method name (the class named before it) rather than a setting or a type: camel case, long. */
    private static final Pattern TEST_METHOD = Pattern.compile("[a-z]\\w*(?:[A-Z]\\w*){3,}");

    @Test
    void everyTestTheClaimsTableNamesExists() throws IOException {
        Map<String, String> testSources = testSources();
        List<String> named = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String testsCell : testsCells()) {
            Matcher code = CODE.matcher(testsCell);
            while (code.find()) {
                String name = code.group(1);
                String method = code.group(2);
                if (TEST_CLASS.matcher(name).matches()) {
                    named.add(name);
                    String source = testSources.get(name);
                    if (source == null || method != null && !source.contains("void " + method + "(")) {
                        missing.add(method == null ? name : name + "." + method);
                    }
                } else if (method == null && TEST_METHOD.matcher(name).matches()) {
                    named.add(name);
                    if (testSources.values().stream().noneMatch(source -> source.contains("void " + name + "("))) {
                        missing.add(name);
                    }
                }
            }
        }
        assertFalse(named.isEmpty(), "found no test named in README's claims table");
        assertEquals(List.of(), missing, "README's claims table names tests that do not exist");
    }

    /** The last cell of each claim row ({@code | **claim** | where | tests |}). */
    private static List<String> testsCells() throws IOException {
        return Files.readAllLines(ROOT.resolve("README.md")).stream().filter(line -> line.startsWith("| **"))
                .map(line -> line.substring(line.lastIndexOf('|', line.length() - 2) + 1)).toList();
    }

    /**
     * Every test source of the build, by class name (two classes of one name: both sources): the modules' test
     * sources and the suites the testing modules hold as main sources (the adapter contract, the Spring Session
     * samples' suite), whose subclasses run them.
     */
    private static Map<String, String> testSources() throws IOException {
        Map<String, String> sources = new HashMap<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
                String name = directory.getFileName().toString();
                return name.equals("target") || name.startsWith(".") && !directory.equals(ROOT)
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String path = file.toString();
                boolean testSource = path.contains("/src/test/java/") || path.contains("/testing/")
                        && path.contains("/src/main/java/") && TEST_CLASS.matcher(file.getFileName().toString()
                                .replace(".java", "")).matches();
                if (testSource && path.endsWith(".java")) {
                    sources.merge(file.getFileName().toString().replace(".java", ""), read(file), String::concat);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return sources;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
