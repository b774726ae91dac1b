package io.hbasesessions.testing;

/** A node that cannot be started or did not come up, with a message that says where to look or what to do. */
public final class NodeProcessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NodeProcessException(String message) {
        super(message);
    }
}
