package io.hbasesessions.store;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/** SHA-256 of one attribute's serialized bytes: how a save tells a changed attribute, even one changed in place. */
final class AttributeDigest {

    private final byte[] sha256;

    private AttributeDigest(byte[] sha256) {
        this.sha256 = sha256;
    }

    static AttributeDigest of(byte[] serializedValue) {
        try {
            return new AttributeDigest(MessageDigest.getInstance("SHA-256").digest(serializedValue));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform provides SHA-256", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AttributeDigest that && MessageDigest.isEqual(sha256, that.sha256);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(sha256);
    }
}
