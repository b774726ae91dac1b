package io.hbasesessions.jetty;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.SettingsReference;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The Jetty module's files list every setting of the store's vocabulary exactly as the settings define
 * themselves: a new setting is added in one place, and this test prints the lines to paste here.
 */
class ModuleFilesTest {

    private static final Path JETTY_BASE = Path.of("../packaging/hbase-sessions-jetty-module/src/main/jetty-base");

    @Test
    void theXmlPassesEverySettingToTheFactory() throws IOException {
        String xml = Files.readString(JETTY_BASE.resolve("etc/sessions/hbase/session-store.xml"));
        assertTrue(xml.contains(SettingsReference.jettyXmlCalls()),
                "etc/sessions/hbase/session-store.xml must hold these lines:\n" + SettingsReference.jettyXmlCalls());
    }

    @Test
    void theIniTemplateDocumentsEverySetting() throws IOException {
        String module = Files.readString(JETTY_BASE.resolve("modules/session-store-hbase.mod"));
        assertTrue(module.contains(SettingsReference.jettyIniTemplate()),
                "modules/session-store-hbase.mod's [ini-template] must hold:\n" + SettingsReference.jettyIniTemplate());
    }

    /** Non-sticky caching comes with the module: enabling it is enough, no session-cache-* module with it. */
    @Test
    void theModuleBringsANonStickySessionCache() throws IOException {
        String module = Files.readString(JETTY_BASE.resolve("modules/session-store-hbase.mod"));
        String xml = Files.readString(JETTY_BASE.resolve("etc/sessions/hbase/session-store.xml"));
        assertTrue(module.contains("[provides]\nsession-store\nsession-cache\n"), module);
        assertTrue(xml.contains("<New class=\"" + HBaseSessionCacheFactory.class.getName() + "\"/>"), xml);
    }
}
