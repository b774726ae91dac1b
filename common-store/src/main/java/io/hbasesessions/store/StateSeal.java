package io.hbasesessions.store;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;

/**
 * {@code stateProtection} of the {@code s:state} cell, around the bytes {@link StoredState} writes. A
 * protected cell, big-endian:
 * <pre>
 * format byte   0x81 HMAC, 0x82 AES-GCM (a state cell's own format byte is 0x1_ or 0x2_)
 * key id        int: the first 4 bytes of SHA-256 of the key (see {@link StateKeys})
 * HMAC:         the state cell's bytes, then HMAC-SHA256 of (row key, version, format byte, key id, bytes)
 * AES-GCM:      a random 96-bit nonce, then the state cell encrypted, with a 128-bit tag over the
 *               associated data (row key, version, format byte, key id)
 * </pre>
 * The row key and the version {@code s:ver} holds are authenticated but not stored in the cell: a cell
 * copied to another row, or under another version, fails. Any cell written under one of the keys is
 * accepted whatever the mode, so a store can move between {@code hmac} and {@code encrypt}, or to
 * {@code none} while keeping the key file, without ending sessions.
 */
final class StateSeal {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    private static final int HMAC_FORMAT = 0x81;
    private static final int GCM_FORMAT = 0x82;
    private static final int HEADER_BYTES = 1 + Integer.BYTES;
    private static final int HMAC_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int GCM_TAG_BITS = 128;
    /** The version ids are sealed under: state cells are sealed under 1 and above. */
    private static final long ID_SEAL_VERSION = 0;
    private static final SecureRandom NONCES = new SecureRandom();

    /** Why a cell is not trusted; each is logged once per store, every one counted. */
    enum Failure {
        UNPROTECTED("carries no protection (stored before stateProtection was turned on, or by someone without "
                + "the keys)"),
        UNKNOWN_KEY("names a key stateKeyFile does not hold (a key dropped before the cells it wrote ended, or a "
                + "forger's)"),
        NOT_AUTHENTIC("does not verify: its bytes were changed, it was moved from another row, or its version "
                + "was changed"),
        MALFORMED("is too short to be a protected cell");

        private final String reason;

        Failure(String reason) {
            this.reason = reason;
        }
    }

    private final StateProtection mode;
    private final Optional<StateKeys> keys;
    private final LiveCounters counters;
    private final Set<Failure> logged = ConcurrentHashMap.newKeySet();

    StateSeal(StateProtection mode, Optional<StateKeys> keys, LiveCounters counters) {
        if (mode != StateProtection.NONE && keys.isEmpty()) {
            throw new IllegalArgumentException("stateProtection=" + mode + " needs keys");
        }
        this.mode = mode;
        this.keys = keys;
        this.counters = counters;
    }

    /**
     * The seal of {@code settings}; reads {@code stateKeyFile}, so call it at start.
     *
     * @throws StoreConfigurationException if the key file cannot be used
     */
    static StateSeal of(StoreSettings settings, LiveCounters counters) {
        return new StateSeal(settings.get(Setting.STATE_PROTECTION),
                settings.find(Setting.STATE_KEY_FILE).map(StateKeys::load), counters);
    }

    /** The cell to store for {@code state} in the row {@code key} at {@code version}. */
    byte[] seal(SessionKey key, long version, byte[] state) {
        return switch (mode) {
            case NONE -> state;
            case HMAC -> signed(key, version, state);
            case ENCRYPT -> encrypted(key, version, state);
        };
    }

    /**
     * The cell to store for a secret ({@code secret}, a session id) in the row {@code key} at {@code version}:
     * encrypted whenever there are keys, whatever {@code stateProtection} says (an id that is only signed can
     * still be read, and taken over); as it is without keys. {@link #open} reads it back.
     */
    byte[] sealSecret(SessionKey key, long version, byte[] secret) {
        return keys.isPresent() ? encrypted(key, version, secret) : secret;
    }

    /**
     * A session id as an index cell keeps it, bound to the session's row ({@link #sealSecret} under a version no
     * state cell uses, so neither can stand for the other): the expiry index's and the user index's ids.
     */
    byte[] sealId(SessionKey key, String sessionId) {
        return sealSecret(key, ID_SEAL_VERSION, sessionId.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The id an index cell of {@code key}'s row holds, if it is the id of that session in {@code keyScope}: a
     * cell that fails its seal, or whose id does not hash to its row, was not written by a store of this scope.
     */
    Optional<String> idOf(SessionKey key, byte[] sealedId, String keyScope) {
        String id;
        try {
            id = new String(open(key, ID_SEAL_VERSION, sealedId), StandardCharsets.UTF_8);
        } catch (ForgedStateException e) {
            return Optional.empty();
        }
        return SessionKey.forLookup(keyScope, id).filter(key::equals).map(found -> id);
    }

    /**
     * The state bytes of a stored cell, verified before anything else reads them.
     *
     * @throws ForgedStateException (counted as {@code forgedStates}, logged once per kind of failure) if
     *     the cell is not trusted
     */
    byte[] open(SessionKey key, long version, byte[] cell) {
        int format = cell.length == 0 ? -1 : cell[0] & 0xFF;
        if (format != HMAC_FORMAT && format != GCM_FORMAT) {
            if (mode == StateProtection.NONE) {
                return cell;
            }
            throw forged(Failure.UNPROTECTED, key, "");
        }
        if (cell.length < HEADER_BYTES + (format == HMAC_FORMAT ? HMAC_BYTES : NONCE_BYTES + GCM_TAG_BITS / 8)) {
            throw forged(Failure.MALFORMED, key, "");
        }
        int keyId = ByteBuffer.wrap(cell, 1, Integer.BYTES).getInt();
        StateKeys.Key stateKey = keys.flatMap(known -> known.byId(keyId))
                .orElseThrow(() -> forged(Failure.UNKNOWN_KEY, key, " (key id " + StateKeys.idHex(keyId) + ")"));
        Optional<byte[]> state = format == HMAC_FORMAT ? verified(stateKey, key, version, cell)
                : decrypted(stateKey, key, version, cell);
        return state.orElseThrow(() -> forged(Failure.NOT_AUTHENTIC, key, " (key id " + StateKeys.idHex(keyId) + ")"));
    }

    private byte[] signed(SessionKey key, long version, byte[] state) {
        StateKeys.Key signing = keys.orElseThrow().signing();
        byte[] cell = ByteBuffer.allocate(HEADER_BYTES + state.length + HMAC_BYTES)
                .put((byte) HMAC_FORMAT).putInt(signing.id()).put(state).array();
        byte[] tag = tag(signing, key, version, cell, cell.length - HMAC_BYTES);
        System.arraycopy(tag, 0, cell, cell.length - HMAC_BYTES, HMAC_BYTES);
        return cell;
    }

    private static Optional<byte[]> verified(StateKeys.Key stateKey, SessionKey key, long version, byte[] cell) {
        int signedBytes = cell.length - HMAC_BYTES;
        byte[] expected = tag(stateKey, key, version, cell, signedBytes);
        // Constant time: a forger learns nothing from how long a wrong tag takes to be refused.
        if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(cell, signedBytes, cell.length))) {
            return Optional.empty();
        }
        return Optional.of(Arrays.copyOfRange(cell, HEADER_BYTES, signedBytes));
    }

    private static byte[] tag(StateKeys.Key stateKey, SessionKey key, long version, byte[] cell, int signedBytes) {
        try {
            Mac mac = Mac.getInstance(stateKey.macKey().getAlgorithm());
            mac.init(stateKey.macKey());
            mac.update(key.row());
            mac.update(ByteBuffer.allocate(Long.BYTES).putLong(version).array());
            mac.update(cell, 0, signedBytes);
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 with a 32-byte key fails, which no Java 17 runtime does", e);
        }
    }

    private byte[] encrypted(SessionKey key, long version, byte[] state) {
        StateKeys.Key signing = keys.orElseThrow().signing();
        byte[] nonce = new byte[NONCE_BYTES];
        NONCES.nextBytes(nonce);
        ByteBuffer cell = ByteBuffer.allocate(HEADER_BYTES + NONCE_BYTES + state.length + GCM_TAG_BITS / 8)
                .put((byte) GCM_FORMAT).putInt(signing.id()).put(nonce);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, signing, nonce, key, version, cell.array());
            cipher.doFinal(ByteBuffer.wrap(state), cell);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM/NoPadding with a 256-bit key fails, which no Java 17 runtime does",
                    e);
        }
        return cell.array();
    }

    private static Optional<byte[]> decrypted(StateKeys.Key stateKey, SessionKey key, long version, byte[] cell) {
        byte[] nonce = Arrays.copyOfRange(cell, HEADER_BYTES, HEADER_BYTES + NONCE_BYTES);
        try {
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, stateKey, nonce, key, version, cell);
            int sealed = HEADER_BYTES + NONCE_BYTES;
            return Optional.of(cipher.doFinal(cell, sealed, cell.length - sealed));
        } catch (AEADBadTagException e) {
            return Optional.empty();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/GCM/NoPadding with a 256-bit key fails, which no Java 17 runtime does",
                    e);
        }
    }

    /** @param header a buffer starting with the cell's format byte and key id */
    private static Cipher cipher(int cipherMode, StateKeys.Key stateKey, byte[] nonce, SessionKey key, long version,
            byte[] header) throws GeneralSecurityException {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(cipherMode, stateKey.cipherKey(), new GCMParameterSpec(GCM_TAG_BITS, nonce));
        cipher.updateAAD(key.row());
        cipher.updateAAD(ByteBuffer.allocate(Long.BYTES).putLong(version).array());
        cipher.updateAAD(header, 0, HEADER_BYTES);
        return cipher;
    }

    /** @param keyId which key the cell names, as a prefix of the key's hash (never key material), or "" */
    private ForgedStateException forged(Failure failure, SessionKey key, String keyId) {
        counters.increment(StoreCounter.FORGED_STATES);
        if (logged.add(failure)) {
            LOG.log(Level.WARNING, "Session {0}: its state cell {1}{2}; it is treated as absent. Cells failing this "
                    + "way are counted as forgedStates and not logged again.", key.shortHex(), failure.reason, keyId);
        }
        return new ForgedStateException("state cell " + failure.reason + keyId);
    }
}
