package io.hbasesessions.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/** The exit codes of every command, documented in {@code --help} and docs/operations.md from these lines. */
final class ExitCodes {

    static final int OK = 0;
    static final int PROBLEM = 1;
    static final int USAGE = 2;
    static final int UNAVAILABLE = 3;
    static final int SCHEMA = 4;
    static final int UNREADABLE = 5;

    static final String OK_LINE = "0:done; verify: the schema is right; health: healthy; inspect: the session was read";
    static final String PROBLEM_LINE = "1:what was asked about is not right: verify found schema problems, health is "
            + "unhealthy, inspect found no session";
    static final String USAGE_LINE = "2:usage: an unknown option, a setting that is not valid, a malformed id or "
            + "row key";
    static final String UNAVAILABLE_LINE = "3:HBase did not answer within operationTimeoutMillis (or the start-up "
            + "timeout of at least 60 s for the schema and statistics commands)";
    static final String SCHEMA_LINE = "4:a table is missing or differs from the schema (the message has the HBase "
            + "shell command that fixes it)";
    static final String UNREADABLE_LINE = "5:inspect: the row holds cells that are not a session this store can read "
            + "(corrupt, foreign, or forged under stateProtection)";

    private ExitCodes() {
    }

    /** The table of exit codes in docs/operations.md, which {@code CommandLineDocumentationTest} holds to these lines. */
    static String markdownTable() {
        StringBuilder table = new StringBuilder("| Code | Meaning |\n|---|---|\n");
        list().forEach((code, meaning) -> table.append("| ").append(code).append(" | ").append(meaning).append(" |\n"));
        return table.toString();
    }

    /** For picocli's exit code list: code to description. */
    static Map<String, String> list() {
        Map<String, String> list = new LinkedHashMap<>();
        for (String line : new String[] {OK_LINE, PROBLEM_LINE, USAGE_LINE, UNAVAILABLE_LINE, SCHEMA_LINE,
                UNREADABLE_LINE}) {
            int colon = line.indexOf(':');
            list.put(line.substring(0, colon), line.substring(colon + 1));
        }
        return list;
    }
}
