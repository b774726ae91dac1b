package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/settings.md is the settings' own table: this test prints the table to paste. */
class SettingsDocumentationTest {

    @Test
    void theSettingsPageListsEverySettingAsItDefinesItself() throws IOException {
        String settings = Files.readString(Path.of("..", "docs", "settings.md"));
        assertTrue(settings.contains(SettingsReference.markdownTable()),
                "docs/settings.md's table must be:\n" + SettingsReference.markdownTable());
    }
}
