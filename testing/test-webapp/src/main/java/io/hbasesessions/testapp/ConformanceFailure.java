package io.hbasesessions.testapp;

/** What {@code /style?kind=error-page} throws; web.xml maps it to {@code /error-page}. */
public final class ConformanceFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ConformanceFailure(String message) {
        super(message);
    }
}
