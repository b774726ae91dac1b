package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole contract with {@code stateProtection=encrypt}: every write path (create, update, touch,
 * conflict merge, id change, moves over an ended session) seals the cell for the version it stores, or
 * the next read of the row would find it forged.
 */
class EncryptedStateContractTest extends SessionStoreOnHBaseTest {

    @TempDir
    static Path work;

    @Override
    StoreSettings.Builder configured(StoreSettings.Builder settings) {
        try {
            Path keys = Files.write(work.resolve("keys"), List.of(StateSealTest.newKey()));
            return settings.set(Setting.STATE_PROTECTION, StateProtection.ENCRYPT).set(Setting.STATE_KEY_FILE, keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    void noCellTheStoreWroteWasFoundForged() {
        assertEquals(0, store().counters().get(StoreCounter.FORGED_STATES));
    }
}
