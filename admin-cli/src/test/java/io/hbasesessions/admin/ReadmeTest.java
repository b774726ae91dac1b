package io.hbasesessions.admin;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** README's section on the command line says what the tool does: its exit codes and commands, from the code. */
class ReadmeTest {

    @Test
    void readmeListsTheExitCodesAsTheToolDefinesThemAndEveryCommand() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        assertTrue(readme.contains(ExitCodes.markdownTable()), "README.md's exit code table must be:\n"
                + ExitCodes.markdownTable());
        List<String> commands = AdminMain.commandLine(System.in).getSubcommands().keySet().stream()
                .filter(name -> !name.equals("help")).toList();
        for (String command : commands) {
            assertTrue(readme.contains("| `" + command), "README.md's command table lacks " + command);
        }
    }
}
