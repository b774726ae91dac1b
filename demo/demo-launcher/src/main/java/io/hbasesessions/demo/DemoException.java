package io.hbasesessions.demo;

/** A reason the demo cannot go on, worded for the person who started it: printed as one line. */
final class DemoException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DemoException(String message) {
        super(message);
    }
}
