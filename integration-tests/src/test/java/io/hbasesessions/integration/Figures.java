package io.hbasesessions.integration;

/**
 * The measured figures a run reports (misses, counter deltas, answer times), one line each on
 * standard output, so that they land in the failsafe reports ({@code target/failsafe-reports/*-output.txt})
 * and can be collected with {@code grep -h '^FIGURE' target/failsafe-reports/*-output.txt}.
 */
final class Figures {

    private Figures() {
    }

    static void print(String subject, String figure) {
        System.out.println("FIGURE " + subject + ": " + figure);
    }
}
