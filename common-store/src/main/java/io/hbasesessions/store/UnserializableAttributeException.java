package io.hbasesessions.store;

/** An attribute value could not be serialized; the save failed and the stored state was left as it was. */
public class UnserializableAttributeException extends SessionStoreException {

    private final String attributeName;

    public UnserializableAttributeException(String attributeName, String valueClassName, String sessionKeyHex,
            Throwable cause) {
        super("Session attribute '" + attributeName + "' of class " + valueClassName
                + " cannot be serialized: " + cause.getMessage(), sessionKeyHex, cause);
        this.attributeName = attributeName;
    }

    public String attributeName() {
        return attributeName;
    }
}
