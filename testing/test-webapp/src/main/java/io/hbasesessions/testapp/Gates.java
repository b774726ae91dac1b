package io.hbasesessions.testapp;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Named gates in this node's JVM: a request waits at one ({@code await=NAME}) until another request
 * opens it ({@code /gate?open=NAME}), so a test can change the world (stop HBase) while a request is
 * between reading its session and writing it.
 */
public final class Gates {

    /**
     * The parameter naming the gate a request stops at after its answer is committed, until the client releases
     * it ({@code /gate?release=NAME}): the client reads what it wants while that request certainly still runs.
     */
    public static final String HOLD_AFTER_COMMIT = "holdAfterCommit";
    private static final long MAX_WAIT_SECONDS = 120;
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
    private static final Map<String, Boolean> WAITING = new ConcurrentHashMap<>();

    private Gates() {
    }

    public static void await(String name) throws InterruptedException {
        WAITING.put(name, true);
        try {
            if (!gate(name).await(MAX_WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Gate " + name + " was not opened within " + MAX_WAIT_SECONDS + " s");
            }
        } finally {
            WAITING.remove(name);
            GATES.remove(name);
        }
    }

    /** As {@link #await}; an interrupt or a gate never opened ends the wait, with the thread's interrupt status kept. */
    static void awaitUninterrupted(String name) {
        try {
            await(name);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IllegalStateException e) {
            // Never released: the test that asked for the hold failed before it released it.
        }
    }

    /** A request that began will stop at gate {@code name} unless it {@link #pass passes} it: {@link #release} finds it. */
    public static void expect(String name) {
        gate(name);
    }

    /** The request that {@link #expect expected} gate {@code name} goes on without stopping there. */
    static void pass(String name) {
        GATES.remove(name);
    }

    static void open(String name) {
        gate(name).countDown();
    }

    /**
     * Opens gate {@code name} for the request that expects it or waits there; returns whether there was one: a
     * request that had not ended, as the gate is only passed at its end.
     */
    static boolean release(String name) {
        CountDownLatch gate = GATES.get(name);
        if (gate != null) {
            gate.countDown();
        }
        return gate != null;
    }

    static boolean isWaiting(String name) {
        return WAITING.containsKey(name);
    }

    private static CountDownLatch gate(String name) {
        return GATES.computeIfAbsent(name, key -> new CountDownLatch(1));
    }
}
