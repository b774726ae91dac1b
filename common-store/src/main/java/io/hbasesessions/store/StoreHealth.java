package io.hbasesessions.store;

import java.util.List;

/**
 * Whether a store can serve: HBase answered within {@code operationTimeoutMillis} and every table has the
 * schema the store needs. The one check behind {@code hbase-sessions health} and the MBean's {@code checkHealth}.
 *
 * @param elapsedMillis how long the check took
 * @param problems why it is not healthy (HBase did not answer, a table is missing or differs, with the fix);
 *     empty when healthy
 */
public record StoreHealth(boolean healthy, long elapsedMillis, List<String> problems) {

    public StoreHealth {
        problems = List.copyOf(problems);
    }

    /** One line for a log, a JMX console or a load balancer's check output. */
    @Override
    public String toString() {
        return (healthy ? "healthy" : "unhealthy: " + String.join(" | ", problems).replace('\n', ' '))
                + " (" + elapsedMillis + " ms)";
    }
}
