package io.hbasesessions.integration;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.function.Predicate;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/** What a user does with files while installing: copy a directory, unzip an archive, edit a line. */
final class FileTrees {

    private FileTrees() {
    }

    /** A fresh copy of {@code source} at {@code target}, permissions (bin/*.sh) included. */
    static Path copyFresh(Path source, Path target) throws IOException {
        deleteRecursively(target);
        Files.createDirectories(target.getParent());
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, target.resolve(source.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return target;
    }

    static void deleteRecursively(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(file);
            }
        }
    }

    static void unzip(Path archive, Path target) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(Files.newInputStream(archive))) {
            for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
                Path file = target.resolve(entry.getName()).normalize();
                if (!file.startsWith(target)) {
                    throw new IOException(archive + " holds an entry outside its directory: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(file);
                } else {
                    Files.createDirectories(file.getParent());
                    Files.copy(zip, file);
                }
            }
        }
    }

    /** A copy of the zip (or WAR) {@code source} at {@code target} without the entries {@code leftOut} names. */
    static Path copyZipWithout(Path source, Path target, Predicate<String> leftOut) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(source));
                ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(target))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (!leftOut.test(entry.getName())) {
                    out.putNextEntry(new ZipEntry(entry.getName()));
                    in.transferTo(out);
                    out.closeEntry();
                }
            }
        }
        return target;
    }

    /** The names of the entries of a zip or jar read from {@code in}. */
    static List<String> entryNames(InputStream in) throws IOException {
        List<String> names = new ArrayList<>();
        ZipInputStream zip = new ZipInputStream(in);
        for (ZipEntry entry; (entry = zip.getNextEntry()) != null; ) {
            names.add(entry.getName());
        }
        return names;
    }

    /** Replaces the one occurrence of {@code text} in {@code file}; fails if it is not there exactly once. */
    static void replaceOnce(Path file, String text, String replacement) throws IOException {
        String content = Files.readString(file);
        int at = content.indexOf(text);
        if (at < 0 || content.indexOf(text, at + 1) >= 0) {
            throw new AssertionError(file + " does not hold exactly one \"" + text + "\": the distribution changed");
        }
        Files.writeString(file, content.substring(0, at) + replacement + content.substring(at + text.length()));
    }
}
