package io.hbasesessions.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.store.Setting;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;

/** The metadata the build wrote, read by Boot's own reader as an IDE reads it. */
class ConfigurationMetadataTest {

    @Test
    void everySettingIsAPropertyWithItsDescriptionTypeAndDefault() throws Exception {
        ConfigurationMetadataRepository repository;
        try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertNotNull(json, "the build writes the metadata into the jar");
            repository = ConfigurationMetadataRepositoryJsonBuilder.create(json).build();
        }
        Map<String, ConfigurationMetadataProperty> properties = repository.getAllProperties();
        assertEquals(Setting.all().size() + 2, properties.size());
        assertEquals(true, properties.get(SessionStoreProperties.ENABLED).getDefaultValue());
        assertEquals(String.class.getName(), properties.get(SessionStoreProperties.ROUTE).getType());
        for (Setting<?> setting : Setting.all()) {
            ConfigurationMetadataProperty property = properties.get(SessionStoreProperties.propertyName(setting));
            assertNotNull(property, setting.name());
            assertTrue(property.getDescription().startsWith(ConfigurationMetadataWriter.plain(setting.description())),
                    setting.name());
            assertFalse(property.getDescription().contains("`"), setting.name());
            assertEquals(setting.defaultValue().map(value -> setting.defaultText()).orElse(null),
                    property.getDefaultValue() == null ? null : property.getDefaultValue().toString(), setting.name());
        }
        assertEquals(Long.class.getName(), properties.get("hbase.sessions.max-lifetime-seconds").getType());
        assertEquals(3, properties.get("hbase.sessions.locking-mode").getHints().getValueHints().size());
    }
}
