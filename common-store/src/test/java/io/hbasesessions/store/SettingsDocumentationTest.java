package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** README's configuration reference is the settings' own: this test prints the table to paste. */
class SettingsDocumentationTest {

    @Test
    void readmesTableListsEverySettingAsItDefinesItself() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        assertTrue(readme.contains(SettingsReference.markdownTable()),
                "README.md's configuration table must be:\n" + SettingsReference.markdownTable());
    }
}
