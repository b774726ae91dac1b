package io.hbasesessions.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** stateProtection without HBase: what each mode writes, what it refuses, and how a key file is checked. */
class StateSealTest {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final SessionKey ROW = SessionKey.forNewSession("/shop", "A1");
    private static final SessionKey OTHER_ROW = SessionKey.forNewSession("/shop", "B2");
    private static final byte[] STATE = "a state cell naming admin".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path work;

    static String newKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private Path keyFile(String... lines) throws Exception {
        Path file = Files.createTempFile(work, "keys", "");
        Files.write(file, List.of(lines));
        return file;
    }

    private StateSeal seal(StateProtection mode, Path keys, LiveCounters counters) {
        return StateSeal.of(StoreSettings.builder().set("zookeeperQuorum", "zk1").set("keyScope", "/shop")
                .set(Setting.STATE_PROTECTION, mode).set(Setting.STATE_KEY_FILE, keys).build(), counters);
    }

    @ParameterizedTest
    @EnumSource(value = StateProtection.class, names = {"HMAC", "ENCRYPT"})
    void aCellOpensOnlyInItsOwnRowAtItsOwnVersionUnchanged(StateProtection mode) throws Exception {
        LiveCounters counters = new LiveCounters();
        StateSeal seal = seal(mode, keyFile(newKey()), counters);
        byte[] cell = seal.seal(ROW, 7, STATE);
        assertArrayEquals(STATE, seal.open(ROW, 7, cell));

        assertThrows(ForgedStateException.class, () -> seal.open(OTHER_ROW, 7, cell), "moved to another row");
        assertThrows(ForgedStateException.class, () -> seal.open(ROW, 8, cell), "another version");
        for (int i = 0; i < cell.length; i++) {
            byte[] tampered = cell.clone();
            tampered[i] ^= 0x01;
            assertThrows(ForgedStateException.class, () -> seal.open(ROW, 7, tampered), "byte " + i + " flipped");
        }
        assertThrows(ForgedStateException.class, () -> seal.open(ROW, 7, STATE), "an unprotected cell");
        for (int length = 0; length < cell.length; length++) {
            byte[] truncated = Arrays.copyOf(cell, length);
            assertThrows(ForgedStateException.class, () -> seal.open(ROW, 7, truncated), length + " bytes");
        }
        assertEquals(3 + 2 * cell.length, counters.snapshot().get(StoreCounter.FORGED_STATES));
    }

    @Test
    void encryptedCellsHideTheStateAndDifferOnEveryWrite() throws Exception {
        StateSeal seal = seal(StateProtection.ENCRYPT, keyFile(newKey()), new LiveCounters());
        byte[] first = seal.seal(ROW, 1, STATE);
        byte[] second = seal.seal(ROW, 1, STATE);
        assertFalse(new String(first, StandardCharsets.ISO_8859_1).contains("admin"));
        assertFalse(Arrays.equals(first, second), "a fresh nonce per write");
        assertEquals(STATE.length + 1 + 4 + 12 + 16, first.length);
    }

    @Test
    void theFirstKeySignsEveryKeyVerifiesAndAWrongKeyDoesNot() throws Exception {
        String oldKey = newKey();
        String newKey = newKey();
        LiveCounters counters = new LiveCounters();
        StateSeal before = seal(StateProtection.HMAC, keyFile(oldKey), counters);
        StateSeal rotated = seal(StateProtection.HMAC, keyFile(newKey, oldKey), counters);
        StateSeal stranger = seal(StateProtection.HMAC, keyFile(newKey()), counters);
        byte[] oldCell = before.seal(ROW, 3, STATE);

        assertArrayEquals(STATE, rotated.open(ROW, 3, oldCell), "an old key still verifies");
        byte[] newCell = rotated.seal(ROW, 4, STATE);
        assertNotEquals(oldCell[1], newCell[1], "new cells name the new key (ids differ but for a 1 in 256 chance)");
        assertThrows(ForgedStateException.class, () -> before.open(ROW, 4, newCell), "the new key is unknown to it");
        assertThrows(ForgedStateException.class, () -> stranger.open(ROW, 3, oldCell));
        assertEquals(2, counters.snapshot().get(StoreCounter.FORGED_STATES));
    }

    @Test
    void aCellSignedWithAWrongKeyUnderAKnownIdDoesNotVerify() throws Exception {
        String key = newKey();
        StateSeal seal = seal(StateProtection.HMAC, keyFile(key), new LiveCounters());
        byte[] cell = seal.seal(ROW, 1, STATE);
        // A forger who copies the key id of a real key still cannot make the tag.
        byte[] forged = seal(StateProtection.HMAC, keyFile(newKey()), new LiveCounters()).seal(ROW, 1, STATE);
        System.arraycopy(cell, 1, forged, 1, 4);
        ForgedStateException e = assertThrows(ForgedStateException.class, () -> seal.open(ROW, 1, forged));
        assertTrue(e.getMessage().contains("does not verify"), e.getMessage());
    }

    @Test
    void withNoneCellsAreWrittenAsTheyAreAndProtectedOnesStillOpenWhileTheKeysAreThere() throws Exception {
        Path keys = keyFile(newKey());
        byte[] protectedCell = seal(StateProtection.HMAC, keys, new LiveCounters()).seal(ROW, 2, STATE);
        StateSeal turnedOff = seal(StateProtection.NONE, keys, new LiveCounters());
        assertArrayEquals(STATE, turnedOff.seal(ROW, 2, STATE));
        assertArrayEquals(STATE, turnedOff.open(ROW, 2, STATE));
        assertArrayEquals(STATE, turnedOff.open(ROW, 2, protectedCell));
        StateSeal withoutKeys = new StateSeal(StateProtection.NONE, Optional.empty(), new LiveCounters());
        assertThrows(ForgedStateException.class, () -> withoutKeys.open(ROW, 2, protectedCell));
    }

    @Test
    void eachKindOfFailureIsLoggedOnceWithoutTheIdOrTheBytes() throws Exception {
        StateSeal seal = seal(StateProtection.HMAC, keyFile(newKey()), new LiveCounters());
        byte[] cell = seal.seal(ROW, 1, STATE);
        try (LogCapture log = new LogCapture()) {
            for (int i = 0; i < 3; i++) {
                assertThrows(ForgedStateException.class, () -> seal.open(ROW, 1, STATE));
                assertThrows(ForgedStateException.class, () -> seal.open(ROW, 2, cell));
            }
            assertEquals(2, log.warnings().size(), log.warnings().toString());
            for (String warning : log.warnings()) {
                assertTrue(warning.contains(ROW.shortHex()), warning);
                assertFalse(warning.contains("A1") || warning.contains("admin"), warning);
            }
        }
    }

    @Test
    void configurationErrorsStopTheStartNamingTheSettingNeverTheKey() throws Exception {
        StoreSettings.Builder hmacWithoutKeys = StoreSettings.builder().set("zookeeperQuorum", "zk1")
                .set("keyScope", "/shop").set("stateProtection", "hmac");
        assertMessage(() -> hmacWithoutKeys.build(), "stateProtection=hmac needs stateKeyFile");
        String keyForAPath = newKey();
        String message = assertThrows(StoreConfigurationException.class, () -> StateKeys.load(Path.of(keyForAPath)))
                .getMessage();
        assertFalse(message.contains(keyForAPath), "a key given where the path goes is quoted: " + message);
        assertTrue(message.contains("stateKeyFile is not a readable file") && message.contains("looks like a key itself"),
                message);
        assertMessage(() -> StateKeys.load(work.resolve("missing")), "stateKeyFile is not a readable file");
        assertMessage(() -> StateKeys.load(keyFile("", "# no key yet")), "stateKeyFile=", "holds no key");
        String shortKey = Base64.getEncoder().encodeToString("sixteen byte key".getBytes(StandardCharsets.US_ASCII));
        message = assertMessage(() -> StateKeys.load(keyFile(newKey(), shortKey)), "stateKeyFile=",
                "key on line 2 is 16 bytes", "at least 32");
        assertFalse(message.contains(shortKey), "no key material in the message");
        String notBase64 = "not base64 at all!";
        assertFalse(assertMessage(() -> StateKeys.load(keyFile(notBase64)), "line 1 is not base64")
                .contains(notBase64));
        String key = newKey();
        assertFalse(assertMessage(() -> StateKeys.load(keyFile(key, "", key)), "line 3 repeats the key of line 1")
                .contains(key));
    }

    private static String assertMessage(org.junit.jupiter.api.function.Executable action, String... parts) {
        StoreConfigurationException e = assertThrows(StoreConfigurationException.class, action);
        for (String part : parts) {
            assertTrue(e.getMessage().contains(part), e.getMessage());
        }
        return e.getMessage();
    }
}
