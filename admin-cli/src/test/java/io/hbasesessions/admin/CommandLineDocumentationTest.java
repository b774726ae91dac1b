package io.hbasesessions.admin;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/operations.md's section on the command line says what the tool does: its exit codes and commands. */
class CommandLineDocumentationTest {

    private static final Path OPERATIONS = Path.of("..", "docs", "operations.md");

    @Test
    void theOperationsGuideListsTheExitCodesAsTheToolDefinesThemAndEveryCommand() throws IOException {
        String guide = Files.readString(OPERATIONS);
        assertTrue(guide.contains(ExitCodes.markdownTable()), OPERATIONS + "'s exit code table must be:\n"
                + ExitCodes.markdownTable());
        List<String> commands = AdminMain.commandLine(System.in).getSubcommands().keySet().stream()
                .filter(name -> !name.equals("help")).toList();
        for (String command : commands) {
            assertTrue(guide.contains("| `" + command), OPERATIONS + "'s command table lacks " + command);
        }
    }
}
