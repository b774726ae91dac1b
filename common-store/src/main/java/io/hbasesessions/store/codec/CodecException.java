package io.hbasesessions.store.codec;

/** One value could not be serialized or deserialized; the message says why (e.g. the missing class). */
public final class CodecException extends RuntimeException {

    private final boolean refused;

    public CodecException(String message, Throwable cause) {
        this(message, cause, false);
    }

    private CodecException(String message, Throwable cause, boolean refused) {
        super(message, cause);
        this.refused = refused;
    }

    /**
     * Why stored bytes could not be read by the codec named {@code codec}: refused by the read rules
     * (a class they do not allow, a claim beyond the bounds), a class that is gone, or anything else.
     */
    static CodecException readFailure(String codec, Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof DecodingRefusedException refusal) {
                return new CodecException("refused: " + refusal.getMessage(), failure, true);
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ClassNotFoundException) {
                return new CodecException("class not found: " + cause.getMessage(), failure);
            }
        }
        return new CodecException(codec + " deserialization failed: " + firstLine(failure), failure);
    }

    /**
     * Whether the read rules refused the bytes (a class the allow-list or deny list refuses, a length,
     * depth or graph size beyond the bounds): hostile or damaged bytes, not a class gone after a redeploy.
     */
    public boolean refused() {
        return refused;
    }

    static String firstLine(Throwable e) {
        String message = e.getMessage();
        return message == null ? e.getClass().getName() : message.lines().findFirst().orElse(message);
    }
}
