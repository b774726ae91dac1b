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

    static void open(String name) {
        gate(name).countDown();
    }

    static boolean isWaiting(String name) {
        return WAITING.containsKey(name);
    }

    private static CountDownLatch gate(String name) {
        return GATES.computeIfAbsent(name, key -> new CountDownLatch(1));
    }
}
