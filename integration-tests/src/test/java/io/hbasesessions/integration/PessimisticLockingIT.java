package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.embedded.TestNamespace;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import io.hbasesessions.testing.NodeProgram;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue #10 item 6: {@code lockingMode=pessimistic} loses no update, even when leases expire mid-request.
 * Eight clients share one session and increment one counter 100 times each, alternating between a
 * Tomcat and a Jetty node, with {@code leaseTimeoutSeconds=1}; one request of each client works longer
 * than the lease, so another request takes the lease over and changes the counter first. The late
 * holder must then fail (503, retryable) rather than write its stale count; clients retry a 503. The
 * counter ends at exactly the number of increments answered 200, and those answers count 1..800 once
 * each.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PessimisticLockingIT {

    private static final int CLIENTS = 8;
    private static final int INCREMENTS_PER_CLIENT = 100;
    /** The request number (of each client) that works longer than the lease. */
    private static final int SLOW_REQUEST = 50;
    private static final int SLOW_WORK_MS = 1_500;
    private static final int MAX_ATTEMPTS_PER_INCREMENT = 50;
    /** A request that takes this long waited for a lease that was not given back (it expires after 1 s). */
    private static final long LEASE_WAIT_SIGN_MS = 700;

    private final TestNodes nodes = new TestNodes("pessimistic");
    private Node tomcat;
    private Node jetty;

    @BeforeAll
    void startNodes(EmbeddedHBase hbase, TestNamespace namespace) throws InterruptedException {
        Map<String, String> settings = TestNodes.storeSettings(hbase, namespace.table("pessimistic"));
        settings.put("lockingMode", "pessimistic");
        settings.put("leaseTimeoutSeconds", "1");
        tomcat = new Node("tomcat-11", Node.Kind.TOMCAT, "t11",
                nodes.start(nodes.node(NodeProgram.TOMCAT_11, "tomcat-11").route("t11").storeSettings(settings)));
        jetty = new Node("jetty", Node.Kind.JETTY, "node0", nodes.start(nodes.node(NodeProgram.JETTY_12_1, "jetty")
                .storeSettings(settings)));
        nodes.awaitReady();
    }

    @AfterAll
    void stopNodes() {
        nodes.stopAll();
    }

    @Test
    void eightClientsIncrementingOneSessionThroughExpiringLeasesLoseNoIncrement() throws Exception {
        Browser browser = new Browser();
        browser.get(tomcat.session(), "op=create").expect(200);
        Counters tomcatBefore = tomcat.counters();
        Counters jettyBefore = jetty.counters();
        Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
        List<String> duplicates = new ArrayList<>();
        AtomicInteger retried = new AtomicInteger();
        CyclicBarrier start = new CyclicBarrier(CLIENTS);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        Instant started = Instant.now();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int client = 0; client < CLIENTS; client++) {
                int number = client;
                running.add(clients.submit(() -> {
                    start.await(30, TimeUnit.SECONDS);
                    for (int i = 1; i <= INCREMENTS_PER_CLIENT; i++) {
                        Node node = (number + i) % 2 == 0 ? tomcat : jetty;
                        int count = increment(browser, node, i == SLOW_REQUEST ? SLOW_WORK_MS : 0, retried);
                        if (!acknowledged.add(count)) {
                            synchronized (duplicates) {
                                duplicates.add(count + " (client " + number + ", on " + node + ")");
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : running) {
                client.get(5, TimeUnit.MINUTES);
            }
        } finally {
            clients.shutdownNow();
        }
        Duration elapsed = Duration.between(started, Instant.now());
        Map<String, Long> onTomcat = tomcat.counters().since(tomcatBefore);
        Map<String, Long> onJetty = jetty.counters().since(jettyBefore);
        int total = CLIENTS * INCREMENTS_PER_CLIENT;
        String stored = browser.get(jetty.session(), "op=get").expect(200).value("attr.count");
        Figures.print("pessimistic " + CLIENTS + " x " + INCREMENTS_PER_CLIENT, "acknowledged " + acknowledged.size()
                + ", stored count " + stored + ", 503s retried " + retried + ", in " + elapsed.toMillis() + " ms; tomcat "
                + "conflicts=" + onTomcat.get("conflicts") + " conflictRetries=" + onTomcat.get("conflictRetries")
                + " errors=" + onTomcat.get("errors") + "; jetty conflicts=" + onJetty.get("conflicts")
                + " conflictRetries=" + onJetty.get("conflictRetries") + " errors=" + onJetty.get("errors"));

        assertEquals(List.of(), duplicates, "two acknowledged increments saw the same count: an update was lost");
        assertEquals(String.valueOf(total), stored, "the counter after " + total + " acknowledged increments");
        Set<Integer> expected = new TreeSet<>();
        for (int i = 1; i <= total; i++) {
            expected.add(i);
        }
        assertEquals(expected, new TreeSet<>(acknowledged), "the counts the acknowledged increments answered");
        assertTrue(retried.get() > 0, "no request lost its lease: the test did not test lease expiry");
    }

    /**
     * A request that reads its session only on another thread (an asynchronous request) gives its lease
     * back when it completes: the session's next request does not wait for the lease to expire.
     */
    @Test
    void aSessionReadOnlyOnAnAsyncThreadGivesItsLeaseBack() {
        for (Node node : List.of(tomcat, jetty)) {
            Browser browser = new Browser();
            browser.get(node.session(), "op=put&name=v&value=kept").expect(200);
            for (String read : List.of("kind=plain&readOnly=true", "kind=async-complete&readOnly=true",
                    "kind=async-dispatch&readOnly=true")) {
                Answer answer = browser.get(node.resolve("style"), read).expect(200);
                assertEquals("Note(kept)", answer.value("value"), read + " on " + node);
                Answer next = browser.get(node.session(), "op=get").expect(200);
                Figures.print("pessimistic lease after " + read + " on " + node, "next request answered in "
                        + next.elapsed().toMillis() + " ms (lease timeout 1000 ms)");
                assertTrue(next.elapsed().toMillis() < LEASE_WAIT_SIGN_MS, "the request after " + read + " on " + node
                        + " took " + next.elapsed().toMillis() + " ms: it waited for a lease the earlier request kept");
            }
        }
    }

    /** One acknowledged increment: retried while the node answers 503 (a lost lease, a lease not got in time). */
    private static int increment(Browser browser, Node node, int workMillis, AtomicInteger retried) {
        for (int attempt = 1; attempt <= MAX_ATTEMPTS_PER_INCREMENT; attempt++) {
            Answer answer = browser.get(node.session(), "op=incr&name=count&work=" + workMillis);
            if (answer.status() == 200) {
                return Integer.parseInt(answer.value("attr.count"));
            }
            if (answer.status() != 503) {
                throw new AssertionError(node + " answered an increment " + answer.status() + ":\n" + answer.body());
            }
            retried.incrementAndGet();
        }
        throw new AssertionError("An increment on " + node + " was refused " + MAX_ATTEMPTS_PER_INCREMENT + " times");
    }
}
