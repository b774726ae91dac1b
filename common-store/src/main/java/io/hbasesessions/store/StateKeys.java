package io.hbasesessions.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys of {@code stateKeyFile}: the first protects new cells, every one is accepted on read. A key
 * is used only through two keys derived from it, one for HMAC and one for AES-GCM, so that one secret
 * never serves two algorithms. No message of this class ever quotes key material.
 */
final class StateKeys {

    /** 256 bits: as strong as HMAC-SHA256 and AES-256 can use. */
    static final int MIN_KEY_BYTES = 32;
    private static final String HMAC = "HmacSHA256";

    /** One key of the file, by its id. */
    record Key(int id, SecretKeySpec macKey, SecretKeySpec cipherKey) {
    }

    private final Key signing;
    private final Map<Integer, Key> byId;

    private StateKeys(List<Key> keys) {
        this.signing = keys.get(0);
        Map<Integer, Key> ids = new LinkedHashMap<>();
        keys.forEach(key -> ids.put(key.id(), key));
        this.byId = Map.copyOf(ids);
    }

    /**
     * Reads the keys of {@code file}: one base64 key per line; blank lines and lines starting with
     * {@code #} are skipped.
     *
     * @throws StoreConfigurationException naming {@code stateKeyFile} and the line, if the file cannot be
     *     read, holds no key, or a key is not base64, too short, or repeated
     */
    static StateKeys load(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.US_ASCII);
        } catch (IOException | SecurityException e) {
            // The value is not quoted: it may be a key given where the key file's path goes.
            throw new StoreConfigurationException("Invalid hbase-sessions configuration: " + Setting.STATE_KEY_FILE.name()
                    + " is not a readable file (" + e.getClass().getSimpleName() + ")" + (looksLikeAKey(file.toString())
                            ? "; its value looks like a key itself: put the key in a file and give the file's path" : ""));
        }
        List<Key> keys = new ArrayList<>();
        Map<Integer, Integer> lineOfId = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            Key key = derive(decode(file, i + 1, line));
            Integer earlier = lineOfId.putIfAbsent(key.id(), i + 1);
            if (earlier != null) {
                throw invalid(file, "line " + (i + 1) + " repeats the key of line " + earlier);
            }
            keys.add(key);
        }
        if (keys.isEmpty()) {
            throw invalid(file, "holds no key (one base64 key per line: openssl rand -base64 32 > " + file + ")");
        }
        return new StateKeys(keys);
    }

    /** Whether {@code text} decodes as base64 to as many bytes as a key has at least. */
    private static boolean looksLikeAKey(String text) {
        try {
            return Base64.getDecoder().decode(text.strip()).length >= MIN_KEY_BYTES;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The key new cells are protected with: the file's first. */
    Key signing() {
        return signing;
    }

    Optional<Key> byId(int id) {
        return Optional.ofNullable(byId.get(id));
    }

    /** A key id as logs show it: a prefix of the key's hash, never the key. */
    static String idHex(int id) {
        return HexFormat.of().toHexDigits(id);
    }

    private static byte[] decode(Path file, int lineNumber, String line) {
        byte[] secret;
        try {
            secret = Base64.getDecoder().decode(line);
        } catch (IllegalArgumentException e) {
            throw invalid(file, "line " + lineNumber + " is not base64");
        }
        if (secret.length < MIN_KEY_BYTES) {
            throw invalid(file, "the key on line " + lineNumber + " is " + secret.length + " bytes; at least "
                    + MIN_KEY_BYTES + " random bytes are needed (openssl rand -base64 32)");
        }
        return secret;
    }

    private static Key derive(byte[] secret) {
        // The first 4 bytes of the key's SHA-256 name it in a cell: enough to pick it among a few, useless to guess it.
        int id = ByteBuffer.wrap(SessionKey.sha256(secret)).getInt();
        return new Key(id, new SecretKeySpec(derive(secret, "hbase-sessions state hmac"), HMAC),
                new SecretKeySpec(derive(secret, "hbase-sessions state aes-gcm"), "AES"));
    }

    private static byte[] derive(byte[] secret, String purpose) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(new SecretKeySpec(secret, HMAC));
            return mac.doFinal(purpose.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The JDK lacks HmacSHA256, which every Java 17 runtime has", e);
        }
    }

    private static StoreConfigurationException invalid(Path file, String problem) {
        return new StoreConfigurationException("Invalid hbase-sessions configuration: " + Setting.STATE_KEY_FILE.name()
                + "=" + file + " " + problem);
    }
}
