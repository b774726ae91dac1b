package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.StoreSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The module, its XML and the factory offer every setting of the shared vocabulary, by its name. */
class ModuleFilesTest {

    private static final Path JETTY_BASE = Path.of("../packaging/hbase-sessions-jetty-module/src/main/jetty-base");

    @Test
    void everySettingIsInTheIniTemplateTheXmlAndTheFactory() throws IOException {
        String module = Files.readString(JETTY_BASE.resolve("modules/session-store-hbase.mod"));
        String xml = Files.readString(JETTY_BASE.resolve("etc/sessions/hbase/session-store.xml"));
        for (String name : StoreSettings.settingNames()) {
            String property = "jetty.session.hbase." + name;
            assertTrue(module.contains("# " + property + "="), "ini-template lacks " + property);
            assertTrue(xml.contains("<Set name=\"" + name + "\" property=\"" + property + "\"/>"), "XML lacks " + name);
            String setter = "set" + Character.toUpperCase(name.charAt(0)) + name.substring(1);
            assertTrue(Arrays.stream(HBaseSessionDataStoreFactory.class.getMethods())
                    .anyMatch(method -> method.getName().equals(setter)), "factory lacks " + setter);
        }
    }
}
