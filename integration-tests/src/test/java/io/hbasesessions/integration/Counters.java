package io.hbasesessions.integration;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counters of one node's session store at one moment, as its MBean shows them
 * ({@code io.hbasesessions:type=SessionStore,...}: loads, fullWrites, bytesWritten, ...).
 */
record Counters(String node, Map<String, String> values) {

    /** The counters that count writes to HBase rows. */
    static final String[] WRITES = {"creates", "fullWrites", "touches", "idChanges", "deletes", "revocations",
        "bytesWritten"};

    long get(String counter) {
        String value = values.get(counter);
        if (value == null) {
            throw new AssertionError(node + "'s session store has no counter '" + counter + "': " + values);
        }
        return Long.parseLong(value);
    }

    /** Every counter's growth since {@code before}, the ones that did not grow included. */
    Map<String, Long> since(Counters before) {
        Map<String, Long> deltas = new TreeMap<>();
        values.forEach((name, value) -> {
            if (value.matches("-?\\d+") && before.values.containsKey(name)) {
                deltas.put(name, Long.parseLong(value) - before.get(name));
            }
        });
        return deltas;
    }

    /** The write counters' growth since {@code before}. */
    Map<String, Long> writesSince(Counters before) {
        Map<String, Long> deltas = new LinkedHashMap<>();
        for (String counter : WRITES) {
            deltas.put(counter, get(counter) - before.get(counter));
        }
        return deltas;
    }

    /** The growth of the counters that grew, for figures in the test output. */
    static String nonZero(Map<String, Long> deltas) {
        Map<String, Long> grown = new TreeMap<>();
        deltas.forEach((name, delta) -> {
            if (delta != 0) {
                grown.put(name, delta);
            }
        });
        return grown.toString();
    }
}
