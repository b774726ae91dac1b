package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/settings.md is the settings' own page: generated from them, and regenerated when they change. */
class SettingsDocumentationTest {

    @Test
    void theSettingsPageListsEverySettingAsItDefinesItself() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "settings.md"));
        assertEquals(SettingsReference.settingsPage(), page, "docs/settings.md differs from the settings; regenerate "
                + "it with " + SettingsReference.SETTINGS_PAGE_COMMAND);
    }
}
