package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.Setting;
import io.hbasesessions.store.SettingsReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.resource.ResourceFactory;
import org.eclipse.jetty.xml.XmlConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Jetty module's files as the build renders them into the zip (their setting lines generated from the
 * settings, see packaging/hbase-sessions-jetty-module's pom): Jetty's own XML processing hands every
 * {@code jetty.session.hbase.NAME} property to the factory, and the ini template offers every setting.
 */
class ModuleFilesTest {

    private static final Path JETTY_BASE = Path.of("../packaging/hbase-sessions-jetty-module/src/main/jetty-base");
    private static final Pattern INI_TEMPLATE_ENTRY = Pattern.compile("(?m)^# jetty\\.session\\.hbase\\.(\\w+)=(.*)$");

    @Test
    void theXmlPassesEverySettingToTheFactory(@TempDir Path directory) throws Exception {
        Path xml = directory.resolve("session-store.xml");
        Files.writeString(xml, rendered("etc/sessions/hbase/session-store.xml"));
        Map<String, String> properties = new LinkedHashMap<>();
        Setting.all().forEach(setting -> properties.put("jetty.session.hbase." + setting.name(), "value of " + setting.name()));
        Server server = new Server();
        XmlConfiguration configuration = new XmlConfiguration(ResourceFactory.root().newResource(xml));
        configuration.getProperties().putAll(properties);
        configuration.configure(server);

        HBaseSessionDataStoreFactory factory = server.getBean(HBaseSessionDataStoreFactory.class);
        for (Setting<?> setting : Setting.all()) {
            assertEquals("value of " + setting.name(), factory.getSetting(setting.name()), setting.name());
        }
    }

    @Test
    void theIniTemplateDocumentsEverySetting() throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        Matcher entry = INI_TEMPLATE_ENTRY.matcher(rendered("modules/session-store-hbase.mod"));
        while (entry.find()) {
            entries.put(entry.group(1), entry.group(2));
        }
        List<String> names = Setting.all().stream().map(Setting::name).toList();
        assertEquals(names, List.copyOf(entries.keySet()));
        Setting.all().forEach(setting -> assertEquals(setting.defaultText(), entries.get(setting.name()), setting.name()));
    }

    /** Non-sticky caching comes with the module: enabling it is enough, no session-cache-* module with it. */
    @Test
    void theModuleBringsANonStickySessionCache() throws IOException {
        String module = rendered("modules/session-store-hbase.mod");
        String xml = rendered("etc/sessions/hbase/session-store.xml");
        assertTrue(module.contains("[provides]\nsession-store\nsession-cache\n"), module);
        assertTrue(xml.contains("<New class=\"" + HBaseSessionCacheFactory.class.getName() + "\"/>"), xml);
    }

    private static String rendered(String file) throws IOException {
        return SettingsReference.renderJettyTemplate(Files.readString(JETTY_BASE.resolve(file)));
    }
}
