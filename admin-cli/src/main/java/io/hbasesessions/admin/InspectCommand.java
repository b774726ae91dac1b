package io.hbasesessions.admin;

import io.hbasesessions.store.SessionInspection;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StateProtection;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "inspect", description = {"Prints one session's metadata and its attributes' names, sizes and the "
        + "classes their bytes name; decodes nothing of a value unless asked (--values).",
        "The session id is read from the first line of stdin, or of --id-file, so it never lands in a shell's "
                + "history or a process list; it needs --key-scope. --key-hash names the row instead.",
        "Every text from the cell is printed with its control characters escaped."})
final class InspectCommand extends StoreCommand {

    /** Longer than any id a session can have, short enough that hostile input costs nothing. */
    private static final int MAX_LINE_CHARS = 4_096;

    @ArgGroup(exclusive = true)
    Source source = new Source();

    static final class Source {
        @Option(names = "--id-file", paramLabel = "FILE", description = "A file whose first line is the session id.")
        Path idFile;

        @Option(names = "--key-hash", paramLabel = "HEX", description = "The whole row key, 64 hex digits, as "
                + "revoke prints it (a log line's 12-digit prefix is not enough).")
        String keyHash;
    }

    @Option(names = "--values", description = {"Also decode each value, under the store's class rules, and print its "
            + "toString(), cut at " + SessionInspection.Attribute.MAX_VALUE_CHARS + " characters. Values may be "
            + "personal data.",
        "Only the JDK's classes are known unless --application-classpath names the application's; this tool's "
                + "own class path is never searched. Needs the fleet's --state-key-file with --state-protection hmac "
                + "or encrypt (so that only cells the nodes wrote are decoded), or --state-protection none given "
                + "explicitly for a fleet that runs without protection."})
    boolean values;

    @Option(names = "--application-classpath", paramLabel = "PATHS", split = ",", description = "With --values: the "
            + "application's jars and class directories (WEB-INF/classes, WEB-INF/lib/*.jar), comma-separated, whose "
            + "classes values may be of.")
    List<Path> applicationClasspath = List.of();

    @Override
    int run(StoreSettings settings) {
        if (source.keyHash == null && !SettingOptions.given(spec, Setting.KEY_SCOPE)) {
            throw new IllegalArgumentException("inspect by session id needs --key-scope (the application's context "
                    + "path by default, e.g. /shop), or --key-hash");
        }
        checkValuesMayBeDecoded(settings);
        String id = source.keyHash == null ? readId() : null;
        try (URLClassLoader applicationClasses = new URLClassLoader(urls(applicationClasspath),
                        ClassLoader.getPlatformClassLoader());
                StoreAdministration admin = SessionStores.administer(settings)) {
            Optional<ClassLoader> valueClasses = values ? Optional.of(applicationClasses) : Optional.empty();
            SessionInspection inspection = id != null ? admin.inspect(id, valueClasses)
                    : admin.inspectRow(source.keyHash, valueClasses);
            return answer(described(inspection), exitCode(inspection));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot close the application class path: " + e.getMessage(), e);
        }
    }

    /**
     * A value is decoded only from a cell the nodes wrote, which their key shows; a fleet without protection has
     * no such proof, and the operator says it runs so. Without {@code --values} nothing is decoded at all.
     */
    private void checkValuesMayBeDecoded(StoreSettings settings) {
        if (!values) {
            if (!applicationClasspath.isEmpty()) {
                throw new IllegalArgumentException("--application-classpath is for decoding values: add --values");
            }
            return;
        }
        boolean keyed = settings.get(Setting.STATE_PROTECTION) != StateProtection.NONE;
        if (!keyed && !SettingOptions.given(spec, Setting.STATE_PROTECTION)) {
            throw new IllegalArgumentException("--values decodes bytes that whoever can write the table may have "
                    + "written: give the fleet's --state-key-file with --state-protection hmac or encrypt, so that only "
                    + "cells the nodes wrote are decoded, or --state-protection none if the fleet runs without protection");
        }
    }

    private static URL[] urls(List<Path> paths) {
        return paths.stream().map(path -> {
            if (!Files.exists(path)) {
                throw new IllegalArgumentException("--application-classpath: no such file or directory: " + path);
            }
            try {
                return path.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("--application-classpath: not a path: " + path, e);
            }
        }).toArray(URL[]::new);
    }

    private static int exitCode(SessionInspection inspection) {
        if (inspection.unreadable().isPresent()) {
            return ExitCodes.UNREADABLE;
        }
        return inspection.found() ? ExitCodes.OK : ExitCodes.PROBLEM;
    }

    /** The inspection as a report; every text that comes from the cell is marked so ({@link Report#fromCell}). */
    private static Map<String, Object> described(SessionInspection inspection) {
        Map<String, Object> report = Report.of("sessionKey", inspection.sessionKeyHex(), "found", inspection.found());
        inspection.unreadable().ifPresent(reason -> report.put("unreadable", Report.fromCell(reason)));
        inspection.metadata().ifPresent(metadata -> report.put("metadata", Report.of(
                "version", metadata.version(), "codec", metadata.codec().name().toLowerCase(Locale.ROOT),
                "creationTime", metadata.creationTime().toString(), "lastAccessTime",
                metadata.lastAccessTime().toString(), "maxInactiveSeconds", metadata.maxInactiveInterval().toSeconds(),
                "ended", metadata.ended(), "endsAt", metadata.endsAt().toString(),
                "login", metadata.login().map(Report::fromCell),
                "indexedUser", metadata.indexedUser().map(Report::fromCell), "stateBytes", metadata.stateBytes())));
        if (inspection.metadata().isPresent()) {
            report.put("attributes", inspection.attributes().stream().map(attribute -> {
                Map<String, Object> described = Report.of("name", Report.fromCell(attribute.name()),
                        "bytes", attribute.bytes(), "class", attribute.valueClass().map(Report::fromCell));
                attribute.undecodable().ifPresent(reason -> described.put("undecodable", Report.fromCell(reason)));
                attribute.value().ifPresent(value -> described.put("value", Report.fromCell(value)));
                return described;
            }).toList());
        }
        return report;
    }

    private String readId() {
        try (InputStream file = source.idFile != null ? Files.newInputStream(source.idFile) : null) {
            InputStream in = file != null ? file : main.stdin();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            char[] line = new char[MAX_LINE_CHARS + 1];
            int length = 0;
            for (int c = reader.read(); c >= 0 && c != '\n' && length < line.length; c = reader.read()) {
                line[length++] = (char) c;
            }
            String id = new String(line, 0, length).strip();
            if (id.isEmpty()) {
                throw new IllegalArgumentException("No session id: put it on the first line of stdin or of --id-file");
            }
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the session id: " + e.getMessage(), e);
        }
    }
}
