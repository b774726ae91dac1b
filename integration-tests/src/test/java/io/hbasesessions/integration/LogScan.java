package io.hbasesessions.integration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Looks for session ids in what nodes logged. A raw session id is a bearer token: no log line may hold
 * one (DESIGN.md), whoever wrote the line (the store, the adapter, Tomcat, Jetty, the HBase client).
 */
final class LogScan {

    private LogScan() {
    }

    /** The node logs and every {@code *.log} or {@code *.txt} file under {@code directories}. */
    static List<Path> logFiles(Collection<Path> logs, Collection<Path> directories) {
        List<Path> files = new ArrayList<>(logs);
        for (Path directory : directories) {
            if (!Files.isDirectory(directory)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(directory)) {
                paths.filter(Files::isRegularFile)
                        .filter(path -> path.toString().endsWith(".log") || path.toString().endsWith(".txt"))
                        .filter(path -> !files.contains(path))
                        .forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return files;
    }

    /**
     * Every line of {@code files} that holds one of {@code ids} (ignoring case), as
     * {@code <file>:<line number>: <line>} with the id masked, so the report itself leaks nothing.
     */
    static List<String> linesNaming(Collection<Path> files, Collection<String> ids) {
        List<String> found = new ArrayList<>();
        List<String> needles = ids.stream().map(id -> id.toLowerCase(Locale.ROOT)).distinct().toList();
        for (Path file : files) {
            List<String> lines;
            try {
                lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + file, e);
            }
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                String lower = line.toLowerCase(Locale.ROOT);
                if (needles.stream().anyMatch(lower::contains)) {
                    String masked = line;
                    for (String id : needles) {
                        masked = masked.replaceAll("(?i)" + Pattern.quote(id), "<session id>");
                    }
                    found.add(file.getFileName() + ":" + (i + 1) + ": " + abbreviated(masked));
                }
            }
        }
        return found;
    }

    static long lineCount(Collection<Path> files) {
        long lines = 0;
        for (Path file : files) {
            try (Stream<String> fileLines = Files.lines(file, StandardCharsets.UTF_8)) {
                lines += fileLines.count();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read " + file, e);
            }
        }
        return lines;
    }

    private static String abbreviated(String line) {
        return line.length() <= 300 ? line : line.substring(0, 300) + "...";
    }
}
