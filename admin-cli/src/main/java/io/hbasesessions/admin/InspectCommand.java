package io.hbasesessions.admin;

import io.hbasesessions.store.SessionInspection;
import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.Setting;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "inspect", description = {"Prints one session's metadata and its attributes' names, classes and "
        + "sizes, decoded under the store's read rules (values only with --values).",
        "The session id is read from the first line of stdin, or of --id-file, so it never lands in a shell's "
                + "history or a process list; it needs --key-scope. --key-hash names the row instead."})
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

    @Option(names = "--values", description = "Also print each value's toString(), cut at "
            + SessionInspection.Attribute.MAX_VALUE_CHARS + " characters. Values may be personal data.")
    boolean values;

    @Override
    int run(StoreSettings settings) {
        if (source.keyHash == null && !SettingOptions.given(spec, Setting.KEY_SCOPE)) {
            throw new IllegalArgumentException("inspect by session id needs --key-scope (the application's context "
                    + "path by default, e.g. /shop), or --key-hash");
        }
        String id = source.keyHash == null ? readId() : null;
        try (StoreAdministration admin = SessionStores.administer(settings)) {
            SessionInspection inspection = id != null ? admin.inspect(id, values) : admin.inspectRow(source.keyHash, values);
            return answer(described(inspection), exitCode(inspection));
        }
    }

    private static int exitCode(SessionInspection inspection) {
        if (inspection.unreadable().isPresent()) {
            return ExitCodes.UNREADABLE;
        }
        return inspection.found() ? ExitCodes.OK : ExitCodes.PROBLEM;
    }

    private static Map<String, Object> described(SessionInspection inspection) {
        Map<String, Object> report = Report.of("sessionKey", inspection.sessionKeyHex(), "found", inspection.found());
        inspection.unreadable().ifPresent(reason -> report.put("unreadable", reason));
        inspection.metadata().ifPresent(metadata -> report.put("metadata", Report.of(
                "version", metadata.version(), "codec", metadata.codec().name().toLowerCase(Locale.ROOT),
                "creationTime", metadata.creationTime().toString(), "lastAccessTime",
                metadata.lastAccessTime().toString(), "maxInactiveSeconds", metadata.maxInactiveInterval().toSeconds(),
                "ended", metadata.ended(), "endsAt", metadata.endsAt().toString(), "login", metadata.login(),
                "indexedUser", metadata.indexedUser(), "stateBytes", metadata.stateBytes())));
        if (inspection.metadata().isPresent()) {
            report.put("attributes", inspection.attributes().stream().map(attribute -> {
                Map<String, Object> described = Report.of("name", attribute.name(), "bytes", attribute.bytes(),
                        "class", attribute.valueClass());
                attribute.undecodable().ifPresent(reason -> described.put("undecodable", reason));
                attribute.value().ifPresent(value -> described.put("value", value));
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
