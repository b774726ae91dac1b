package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.EmbeddedHBase;
import io.hbasesessions.embedded.HBaseExtension;
import io.hbasesessions.testing.Browser;
import io.hbasesessions.testing.Browser.Answer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The black-box conformance suite (issues #10 and #12): two nodes sharing one HBase, driven over HTTP
 * with the test WAR, as a browser and a load balancer without stickiness would. A subclass names the
 * pair ({@link #firstNodeName}, {@link #secondNodeName}) among the {@link SharedNodes}; every test runs
 * for every pair: Tomcat and Tomcat (10.1 and 11), Jetty and Jetty, Tomcat and Jetty.
 *
 * <p>Each test makes sessions of its own. Counter checks read a node's store counters (its MBean, over
 * HTTP) before and after the test's own requests; tests run one at a time. Measured figures are printed
 * as {@code FIGURE} lines ({@link Figures}).
 *
 * <p>The sticky pairs ({@link AbstractStickyTwoNodeSessionsIT}) run the same tests with {@code stickySessions} on,
 * where two things differ by design: a request on a node that is not the session's home moves the home there, a
 * write even when the request changed nothing; and an end (revocation, invalidation, id change) made on one node
 * reaches the other node's copy within {@code stickyStalenessMillis}, so a test that then presents the old id
 * with the other node's route waits that long first ({@link #awaitTheCopiesBound}).
 */
@ExtendWith({HBaseExtension.class, SharedNodes.Resolver.class})
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractTwoNodeSessionsIT {

    /** Every way the WAR's {@code /style} servlet can commit a response (StyleServlet.KINDS). */
    static final List<String> RESPONSE_STYLES = List.of("plain", "content-length", "large", "flush", "redirect",
            "send-error", "error-page", "async-complete", "async-dispatch");
    /**
     * The styles whose answer reaches the client while the request still runs, by container: Tomcat keeps an answer
     * complete by its Content-Length, a redirect, an error page and an async dispatch's answer until the request ends.
     */
    static final Map<Node.Kind, Set<String>> SENT_BEFORE_THE_REQUEST_ENDS = Map.of(
            Node.Kind.JETTY, Set.of("content-length", "large", "flush", "redirect", "error-page", "async-complete",
                    "async-dispatch"),
            Node.Kind.TOMCAT, Set.of("large", "flush", "async-complete"));
    static final int ALTERNATING_REQUESTS = 200;
    /** Connections that carry only gate releases, never a request a gate holds. */
    private static final HttpClient GATE_CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static final int INCREMENTS = 100;
    static final int CONCURRENT_ADDS = 100;
    /** Work a request does after its answer is committed: a save that waits for the request's end comes this late. */
    static final int WORK_AFTER_COMMIT_MS = 5;
    static final String EARLY_LOOKUP_HEADER = "X-Early-Session-Lookup";

    Node a;
    Node b;
    StoredSessions stored;
    /** With {@code stickySessions}: how long a change takes at most to reach the other node's copy; else zero. */
    Duration copiesBound;

    /** The node that creates most of the tests' sessions. */
    abstract String firstNodeName();

    /** The other node; {@link #aRestartedNodeServesTheSessionsItStored} restarts it. */
    abstract String secondNodeName();

    @BeforeAll
    void startTheSharedNodes(EmbeddedHBase hbase, SharedNodes nodes) throws InterruptedException {
        nodes.startWith(hbase, firstNodeName()).startWith(hbase, secondNodeName());
        a = nodes.node(firstNodeName());
        b = nodes.node(secondNodeName());
        stored = nodes.storedOf(firstNodeName());
        copiesBound = nodes.copiesBoundOf(firstNodeName());
    }

    /** The figures of the closing note: what each node's store counted since it started (restarts reset it). */
    @AfterAll
    void printTheNodesCounters() {
        for (Node node : List.of(a, b)) {
            Map<String, String> values = new TreeMap<>(node.counters().values());
            values.remove("settings");
            values.remove("mbean");
            Figures.print("counters of " + node + " after " + getClass().getSimpleName(), values.toString());
        }
    }

    /** The writes of {@link #everyWriteIsSeenOnTheOtherNodeTheMomentItsHeadersArrive}, per response style. */
    int alternatingRequests() {
        return ALTERNATING_REQUESTS;
    }

    String pair() {
        return a + "+" + b;
    }

    Node other(Node node) {
        return node == a ? b : a;
    }

    // ---------------------------------------------------------------- saved before the response commits

    static Stream<String> responseStyles() {
        return RESPONSE_STYLES.stream();
    }

    /**
     * Issue #10 item 1: the client acts the moment the write's response headers arrive, sending its
     * next request to the other node at once, and only then reads the rest of the answer. Every write
     * must already be in HBase: 0 misses in {@link #alternatingRequests} requests alternating between the nodes.
     * Where the answer is sent before the request ends, the writing request is held after it until that read is done
     * (and shown to have been held then), so a save at the request's end would be missed every time; elsewhere the
     * request ends with the answer and works {@value #WORK_AFTER_COMMIT_MS} ms after it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("responseStyles")
    void everyWriteIsSeenOnTheOtherNodeTheMomentItsHeadersArrive(String style) {
        Browser browser = new Browser();
        get(browser, a, "op=create");
        List<String> missed = new ArrayList<>();
        long headersNanos = 0;
        int held = 0;
        int heldWhileRead = 0;
        int requests = alternatingRequests();
        for (int i = 1; i <= requests; i++) {
            Node writer = i % 2 == 1 ? a : b;
            boolean hold = SENT_BEFORE_THE_REQUEST_ENDS.get(writer.kind()).contains(style);
            String gate = "read-your-writes-" + UUID.randomUUID();
            Browser.Streaming write = browser.open(writer.resolve("style"), "kind=" + style + "&value=" + i
                    + (hold ? "&holdAfterCommit=" + gate : "&work=" + WORK_AFTER_COMMIT_MS));
            headersNanos += write.untilHeaders().toNanos();
            Map<String, String> read = browser.get(other(writer).session(), "op=get").expect(200).values();
            if (hold) {
                held++;
                heldWhileRead += releaseHeld(writer, gate) ? 1 : 0;
            }
            Answer written = write.finish();
            assertEquals(expectedStatus(style), written.status(), writer + " answered the " + style + " write:\n"
                    + written.body());
            if (expectsBody(style)) {
                assertTrue(written.body().contains("value=" + i + "\n"), "the " + style + " answer: " + written.body());
            }
            if (!String.valueOf(i).equals(read.get("attr.v"))) {
                missed.add("#" + i + " (" + writer + "->" + other(writer) + ") read " + read.get("attr.v"));
            }
        }
        Figures.print("read-your-writes " + pair() + " " + style, "misses=" + missed.size() + "/" + requests
                + ", mean time to headers " + headersNanos / requests / 1000 + " us, writes held after "
                + "their answer until read " + heldWhileRead + "/" + held);
        assertEquals(List.of(), missed, "writes the other node did not see when the " + style + " answer's headers came");
        assertEquals(held, heldWhileRead, "writes held after their answer whose request was still running when the "
                + "other node read them: the others prove nothing about a save at the request's end");
    }

    /**
     * Opens the gate a write waits at after its answer; true if that request had not ended. Sent on a connection of
     * the gates' own: an answer whose body is all in may have given its connection back to the client's pool, and a
     * keep-alive connection takes its next request only after the held one ended.
     */
    private static boolean releaseHeld(Node writer, String gate) {
        HttpRequest release = HttpRequest.newBuilder(URI.create(writer.resolve("gate") + "?release=" + gate))
                .timeout(Duration.ofSeconds(30)).build();
        try {
            HttpResponse<String> answer = GATE_CLIENT.send(release, HttpResponse.BodyHandlers.ofString());
            assertEquals(200, answer.statusCode(), answer.body());
            return answer.body().contains("held=true");
        } catch (IOException | InterruptedException e) {
            throw new AssertionError("Releasing " + gate + " on " + writer + " failed", e);
        }
    }

    private static int expectedStatus(String style) {
        return switch (style) {
            case "redirect" -> 302;
            case "send-error" -> 409;
            case "error-page" -> 500;
            default -> 200;
        };
    }

    private static boolean expectsBody(String style) {
        return !style.equals("redirect") && !style.equals("send-error");
    }

    /** Issue #10 item 1: read-modify-write alternating nodes, each answered with a Content-Length before slow work. */
    @Test
    void aHundredIncrementsAlternatingNodesEndAtAHundred() {
        Browser browser = new Browser();
        for (int i = 1; i <= INCREMENTS; i++) {
            Node node = i % 2 == 1 ? a : b;
            Answer answer = browser.get(node.resolve("style"), "kind=content-length&incr=count&work="
                    + WORK_AFTER_COMMIT_MS).expect(200);
            assertEquals(String.valueOf(i), answer.value("count"), "increment " + i + " on " + node);
        }
        for (Node node : List.of(a, b)) {
            assertEquals(String.valueOf(INCREMENTS), get(browser, node, "op=get").get("attr.count"), "as " + node + " reads it");
        }
        Figures.print("increments " + pair(), INCREMENTS + " alternating increments ended at " + INCREMENTS);
    }

    /**
     * A node that still serves an earlier request of the session (a slow download, a report) serves the
     * next request with the session as HBase has it, not with the copy that earlier request holds: a
     * write the other node made in between is seen, and the earlier request's end does not undo it.
     */
    @Test
    void aNodeStillServingAnEarlierRequestOfTheSessionSeesTheOtherNodesNewerWrite() throws Exception {
        Browser browser = new Browser();
        get(browser, a, "op=put&name=note&value=old");
        String gate = "held-" + UUID.randomUUID();
        CompletableFuture<Answer> held = CompletableFuture.supplyAsync(() -> browser.get(a.session(), "op=get&await=" + gate));
        try {
            awaitGate(a, gate);
            get(browser, b, "op=put&name=note&value=new");
            assertEquals("Note(new)", get(browser, a, "op=get").get("attr.note"), a + " served the copy of the request it "
                    + "still holds, not the session as " + b + " saved it");
        } finally {
            new Browser().get(a.resolve("gate"), "open=" + gate).expect(200);
        }
        assertEquals("Note(old)", held.get(30, TimeUnit.SECONDS).expect(200).values().get("attr.note"));
        for (Node node : List.of(a, b)) {
            assertEquals("Note(new)", get(browser, node, "op=get").get("attr.note"), "after the held request ended, as "
                    + node + " reads it");
        }
    }

    /** The change an error page makes itself is saved too, before its answer is committed. */
    @Test
    void aChangeTheErrorPageMakesIsSeenOnTheOtherNode() {
        Browser browser = new Browser();
        get(browser, a, "op=create");
        for (int i = 1; i <= 20; i++) {
            Node writer = i % 2 == 1 ? a : b;
            Browser.Streaming write = browser.open(writer.resolve("style"), "kind=error-page&value=" + i + "&pageWrites=p"
                    + i + "&work=" + WORK_AFTER_COMMIT_MS);
            Map<String, String> read = browser.get(other(writer).session(), "op=get").expect(200).values();
            assertEquals(500, write.finish().status());
            assertEquals(String.valueOf(i), read.get("attr.v"), "the servlet's change, read on " + other(writer));
            assertEquals("p" + i, read.get("attr.errorPage"), "the error page's change, read on " + other(writer));
        }
    }

    // ---------------------------------------------------------------- attributes

    /** The CrossContainerSessionsIT cases: attributes put, changed in place, replaced, removed, on either node. */
    @Test
    void aSessionChangedOnEitherNodeIsReadOnTheOther() {
        assertChangesCross(a, b);
        assertChangesCross(b, a);
    }

    private void assertChangesCross(Node creator, Node other) {
        Browser browser = new Browser();
        Map<String, String> created = get(browser, creator, "op=put&name=note&value=from-" + creator);
        get(browser, creator, "op=append&name=notes&value=c1");
        get(browser, creator, "op=append&name=notes&value=c2"); // in place: no setAttribute
        get(browser, creator, "op=incr&name=count");
        get(browser, creator, "op=put&name=doomed&value=x");
        String id = Browser.withoutRoute(created.get("id"));
        assertTrue(stored.exists(id), creator + " did not store the session under the default key scope");

        Map<String, String> seen = get(browser, other, "op=get");
        assertEquals(id, Browser.withoutRoute(seen.get("id")), other + " serves another session: " + seen);
        assertEquals("false", seen.get("new"));
        assertEquals(Map.of("note", "Note(from-" + creator + ")", "notes", "[Note(c1), Note(c2)]", "count", "1",
                "doomed", "Note(x)"), attributes(seen));
        assertEquals(created.get("creation"), seen.get("creation"), "creation time");
        assertEquals(created.get("maxInactive"), seen.get("maxInactive"), "max inactive interval");

        get(browser, other, "op=append&name=notes&value=o1"); // in place, on the other node
        get(browser, other, "op=put&name=note&value=from-" + other);
        get(browser, other, "op=put&name=added&value=on-" + other);
        get(browser, other, "op=incr&name=count");
        get(browser, other, "op=remove&name=doomed");

        Map<String, String> back = get(browser, creator, "op=get");
        assertEquals(Map.of("note", "Note(from-" + other + ")", "notes", "[Note(c1), Note(c2), Note(o1)]",
                "added", "Note(on-" + other + ")", "count", "2"), attributes(back));
        assertEquals(created.get("creation"), back.get("creation"), "creation time");
    }

    /**
     * Issue #10 item 3: wrappers sharing their backing collection, proxies of a WAR-only interface, hash
     * collections, records, enums with bodies, readObject hooks, EnumMap, List.of, Arrays.asList and a
     * cycle keep their invariants on the other node, and changes made in place are saved.
     */
    @Test
    void hardAttributesKeepTheirInvariantsOnEveryNodeAndInPlaceChangesAreSaved() {
        Map<String, String> broken = new TreeMap<>();
        for (Node creator : List.of(a, b)) {
            Node other = other(creator);
            Browser browser = new Browser();
            hard(browser, creator, "op=put");
            String made = "made on " + creator + ", ";
            broken.putAll(failedChecks(hard(browser, other, "op=check&rounds=0"), made + "read on " + other, 0));
            hard(browser, other, "op=mutate&round=1");
            broken.putAll(failedChecks(hard(browser, creator, "op=check&rounds=1"), made + "read on " + creator, 1));
            hard(browser, creator, "op=mutate&round=2");
            broken.putAll(failedChecks(hard(browser, other, "op=check&rounds=2"), made + "read on " + other, 2));
            broken.putAll(failedChecks(hard(browser, creator, "op=check&rounds=2"), made + "read on " + creator, 2));
        }
        Figures.print("hard attributes " + pair(), broken.isEmpty() ? "every invariant held" : "broken: " + broken);
        assertEquals(Map.of(), broken, "broken invariants (attribute, where the session was made and read, rounds of "
                + "changes in place)");
    }

    /** The checks the WAR reports broken, keyed {@code <attribute> <where> after <rounds> rounds}. */
    private static Map<String, String> failedChecks(Map<String, String> answer, String where, int rounds) {
        assertEquals(17, answer.keySet().stream().filter(key -> key.startsWith("check.")).count(), answer.toString());
        Map<String, String> failed = new TreeMap<>();
        answer.forEach((key, value) -> {
            if (key.startsWith("check.") && !value.equals("ok")) {
                String name = key.substring("check.".length());
                failed.put(name + " " + where + " after " + rounds + " rounds", value + " (state " + answer.get("state."
                        + name) + ")");
            }
        });
        return failed;
    }

    /**
     * Issue #10 item 4: a request on the other node that reads every attribute, hash collections grown
     * and shrunk and sets of enums with bodies included, writes nothing to HBase.
     */
    @Test
    void aReadOnlyRequestOnTheOtherNodeWritesNothing() {
        Browser browser = new Browser();
        hard(browser, a, "op=put");
        get(browser, a, "op=append&name=notes&value=n1");
        if (!copiesBound.isZero()) {
            // stickySessions: the first request on b moves the session's home there, writing it as it was; the reads
            // below are then answered from b's copy, and must write nothing either.
            Counters before = b.counters();
            get(browser, b, "op=get");
            Map<String, Long> moved = b.counters().writesSince(before);
            assertEquals(1, moved.remove("fullWrites"), "the write that moves the home to " + b + ": " + moved);
            moved.remove("bytesWritten");
            moved.forEach((counter, delta) -> assertEquals(0, delta, "the home's move to " + b + " changed " + counter));
        }
        for (String read : List.of("hard?op=read", "session?op=get")) {
            Counters before = b.counters();
            String path = read.substring(0, read.indexOf('?'));
            Answer answer = browser.get(b.resolve(path), read.substring(read.indexOf('?') + 1)).expect(200);
            Counters after = b.counters();
            Map<String, Long> writes = after.writesSince(before);
            Figures.print("read-only request " + pair() + " " + read + " on " + b, "counter deltas "
                    + Counters.nonZero(after.since(before)));
            assertEquals(1, after.get("loads") - before.get("loads"), "loads for one read-only request");
            assertEquals(1, after.get("loadCount") - before.get("loadCount"), "the load's latency, measured on " + b);
            for (String measured : List.of("createCount", "saveCount", "touchCount")) {
                assertEquals(0, after.get(measured) - before.get(measured), measured + " on " + b);
            }
            assertTrue(Double.parseDouble(after.values().get("loadP99Millis")) > 0, "loadP99Millis on " + b);
            writes.forEach((counter, delta) -> assertEquals(0, delta, "a read-only request (" + read + ") on " + b
                    + " changed " + counter + ": " + answer.body()));
        }
    }

    /**
     * Issue #10 item 4: a request that only read {@code grownMap} and wrote another attribute is saved
     * after another node changed the map: its merge must not put its own (unchanged) copy back.
     */
    @Test
    void aRequestThatOnlyReadAMapNeverRevertsAnotherRequestsChangeToIt() throws Exception {
        Browser browser = new Browser();
        hard(browser, a, "op=put");
        String gate = "map-" + UUID.randomUUID();
        Counters before = a.counters();
        CompletableFuture<Answer> reader = CompletableFuture.supplyAsync(() -> browser.get(a.resolve("hard"),
                "op=map-read&key=theme&await=" + gate + "&name=note&value=from-reader"));
        awaitGate(a, gate);
        hard(browser, b, "op=map-set&key=theme&value=99");
        new Browser().get(a.resolve("gate"), "open=" + gate).expect(200);
        Answer read = reader.get(30, TimeUnit.SECONDS).expect(200);
        Counters after = a.counters();

        assertEquals("1", read.value("read"), "the reader read the map before the change");
        for (Node node : List.of(a, b)) {
            Map<String, String> check = hard(browser, node, "op=check&rounds=0");
            assertEquals("theme=99,size=5", check.get("state.grownMap"), "the map as " + node + " reads it: the reader's "
                    + "save reverted the other node's change");
            assertEquals("from-reader", get(browser, node, "op=get").get("attr.note"), "the reader's own write");
        }
        Figures.print("map merge " + pair(), "reader's conflicts=" + (after.get("conflicts") - before.get("conflicts"))
                + ", retries=" + (after.get("conflictRetries") - before.get("conflictRetries")));
        assertTrue(after.get("conflicts") > before.get("conflicts"), "the reader's save did not meet the other write");
    }

    /**
     * Two tabs of one browser, one on each node, adding attributes of their own at the same time: their saves
     * meet (a conflict, merged onto the other tab's write) and nothing is lost.
     */
    @Test
    void concurrentTabsOnBothNodesLoseNothing() throws Exception {
        Browser browser = new Browser();
        String id = Browser.withoutRoute(get(browser, a, "op=create").get("id"));
        CyclicBarrier start = new CyclicBarrier(2);
        ExecutorService tabs = Executors.newFixedThreadPool(2);
        Counters beforeA = a.counters();
        Counters beforeB = b.counters();
        try {
            Future<?> onA = tabs.submit(() -> addAttributes(browser, a, "a", start));
            Future<?> onB = tabs.submit(() -> addAttributes(browser, b, "b", start));
            onA.get(60, TimeUnit.SECONDS);
            onB.get(60, TimeUnit.SECONDS);
        } finally {
            tabs.shutdownNow();
        }
        long conflicts = a.counters().get("conflicts") - beforeA.get("conflicts") + b.counters().get("conflicts")
                - beforeB.get("conflicts");
        Figures.print("concurrent tabs " + pair(), "2 x " + CONCURRENT_ADDS + " additions, conflicts met " + conflicts);
        assertTrue(conflicts > 0, "no save of either tab met the other's newer write: nothing was merged, the case "
                + "this test names did not happen");

        Map<String, String> expected = new TreeMap<>();
        for (String prefix : List.of("a", "b")) {
            IntStream.range(0, CONCURRENT_ADDS).forEach(i -> expected.put(prefix + i, "Note(" + i + ")"));
        }
        for (Node node : List.of(a, b)) {
            Map<String, String> seen = get(browser, node, "op=get");
            assertEquals(id, Browser.withoutRoute(seen.get("id")), "another session on " + node);
            Map<String, String> attributes = attributes(seen);
            List<String> lost = expected.keySet().stream().filter(name -> !attributes.containsKey(name)).toList();
            assertEquals(List.of(), lost, "attributes lost, as " + node + " reads the session");
            assertEquals(expected, new TreeMap<>(attributes), "as " + node + " reads the session");
        }
    }

    private static Void addAttributes(Browser browser, Node node, String prefix, CyclicBarrier start) throws Exception {
        start.await(30, TimeUnit.SECONDS);
        for (int i = 0; i < CONCURRENT_ADDS; i++) {
            Map<String, String> answer = get(browser, node, "op=put&name=" + prefix + i + "&value=" + i);
            assertEquals("Note(" + i + ")", answer.get("attr." + prefix + i), node + " did not keep its own write: " + answer);
        }
        return null;
    }

    /**
     * Issue #10 item 3: an attribute that throws an Error while it is read on one node (its readObject,
     * as after a redeploy) is left out there, with the session and its other attributes served, and its
     * bytes are kept through that node's writes.
     */
    @Test
    void anAttributeOneNodeCannotReadIsLeftOutThereAndKept() {
        Browser browser = new Browser();
        get(browser, a, "op=put&name=note&value=n");
        hard(browser, a, "op=bomb&label=b1");
        new Browser().get(b.resolve("hard"), "op=arm").expect(200);
        Counters before = b.counters();
        try {
            Map<String, String> seen = get(browser, b, "op=get");
            assertEquals("Note(n)", seen.get("attr.note"), seen.toString());
            assertNull(seen.get("attr.bomb"), "an attribute that cannot be read was served: " + seen);
            get(browser, b, "op=put&name=written&value=on-b");
        } finally {
            new Browser().get(b.resolve("hard"), "op=disarm").expect(200);
        }
        Counters after = b.counters();
        assertTrue(after.get("unreadableAttributes") > before.get("unreadableAttributes"), "not counted as unreadable");
        Map<String, String> back = get(browser, a, "op=get");
        assertEquals("Bomb(b1)", back.get("attr.bomb"), "the other node's write lost the attribute it could not read");
        assertEquals("Note(on-b)", back.get("attr.written"));
    }

    /** Jetty's own attributes are hidden from Tomcat webapps and carried through their writes, and the other way round. */
    @Test
    void aContainersInternalAttributesAreHiddenFromTheOtherContainerAndKept() {
        for (Node origin : List.of(a, b)) {
            Node other = other(origin);
            Browser browser = new Browser();
            String marker = origin.internalAttributePrefix() + "conformance.marker";
            get(browser, origin, "op=put&name=" + marker + "&value=mine");
            Map<String, String> seen = get(browser, other, "op=get");
            if (origin.kind() == other.kind()) {
                assertEquals("Note(mine)", seen.get("attr." + marker), "as " + other + " reads it");
            } else {
                assertNull(seen.get("attr." + marker), other + " shows " + origin + "'s internal attribute: " + seen);
            }
            get(browser, other, "op=put&name=plain&value=from-" + other);
            Map<String, String> back = get(browser, origin, "op=get");
            assertEquals("Note(mine)", back.get("attr." + marker), other + "'s write lost " + origin + "'s own attribute");
            assertEquals("Note(from-" + other + ")", back.get("attr.plain"));
        }
    }

    // ---------------------------------------------------------------- lifecycle

    @Test
    void anInvalidationOnOneNodeEndsTheSessionOnBoth() {
        assertInvalidationIsSeenAcross(a, b);
        assertInvalidationIsSeenAcross(b, a);
    }

    private void assertInvalidationIsSeenAcross(Node creator, Node other) {
        Browser browser = new Browser();
        String id = Browser.withoutRoute(get(browser, creator, "op=put&name=note&value=doomed").get("id"));
        get(browser, creator, "op=append&name=notes&value=n1");
        assertEquals("[Note(n1)]", get(browser, other, "op=get").get("attr.notes"), "the session is not shared");
        Counters before = other.counters();

        assertEquals("true", get(browser, other, "op=invalidate").get("invalidated"));

        assertEquals(1, other.counters().get("deletes") - before.get("deletes"), "deletes counted on " + other);
        assertFalse(stored.exists(id), "the invalidated session is still stored");
        assertEquals("none", get(browser, creator, "op=get").get("id"), creator + " still serves the invalidated session");
        assertEquals("none", get(browser, other, "op=get").get("id"), other + " still serves the invalidated session");
        assertEquals("false", get(browser, creator, "op=invalidate").get("invalidated"), "invalidated twice");
    }

    /**
     * Issue #10 item 5: a session revoked ("log out everywhere") or invalidated on the other node while a
     * request holds it, between its read and its write, does not come back when that request saves.
     */
    @ParameterizedTest(name = "{0} on the other node")
    @ValueSource(strings = {"revoked", "invalidated"})
    void aSessionEndedWhileARequestHoldsItDoesNotComeBack(String ending) throws Exception {
        String user = "held-" + UUID.randomUUID();
        Browser browser = new Browser();
        get(browser, a, "op=create");
        get(browser, a, "op=app-login&user=" + user);
        String id = browser.sessionId();
        String gate = "ending-" + UUID.randomUUID();
        CompletableFuture<Answer> held = CompletableFuture.supplyAsync(() -> browser.get(a.session(),
                "op=put&name=late&value=x&await=" + gate));
        try {
            awaitGate(a, gate);
            if (ending.equals("revoked")) {
                assertEquals("1", new Browser().get(b.session(), "op=revoke-all&user=" + user).expect(200).value("revoked"));
            } else {
                assertEquals("true", get(Browser.withCookie(browser.cookie()), b, "op=invalidate").get("invalidated"));
            }
        } finally {
            new Browser().get(a.resolve("gate"), "open=" + gate).expect(200);
        }
        Answer late = held.get(30, TimeUnit.SECONDS);
        Figures.print("held request after its session was " + ending + " " + pair(), "HTTP " + late.status());
        assertFalse(stored.exists(id), "the " + ending + " session is stored again after the held request's save");
        for (Node node : List.of(a, b)) {
            assertEquals("none", get(Browser.withCookie(Browser.withoutRoute(id)), node, "op=get").get("id"),
                    node + " serves the " + ending + " session again");
        }
    }

    /** Issue #10 item 5: after invalidate() a new session gets a fresh id, and an invalidated id is never reused. */
    @Test
    void aSessionMadeAfterAnInvalidationHasAFreshId() {
        Browser browser = new Browser();
        String first = Browser.withoutRoute(get(browser, a, "op=put&name=note&value=old").get("id"));
        String firstCookie = browser.cookie();

        Map<String, String> renewed = get(browser, b, "op=renew&name=fresh&value=new");
        assertEquals(first, Browser.withoutRoute(renewed.get("oldId")), "renewed another session");
        String second = Browser.withoutRoute(renewed.get("id"));
        assertNotEquals(first, second, b + " gave the session made after invalidate() the invalidated id");
        assertEquals(second, browser.sessionId(), "the cookie names another session");
        assertEquals(Map.of("fresh", "Note(new)"), attributes(get(browser, a, "op=get")), "as " + a + " reads the new session");
        awaitTheCopiesBound();
        for (Node node : List.of(a, b)) {
            Browser replay = Browser.withCookie(firstCookie);
            assertEquals("none", get(replay, node, "op=get").get("id"), node + " serves the invalidated session");
            String made = Browser.withoutRoute(get(replay, node, "op=put&name=x&value=y").get("id"));
            assertNotEquals(first, made, node + " reused the invalidated id it was sent");
        }
    }

    @Test
    void anIdChangeOnOneNodeMovesTheSessionForTheOther() {
        assertIdChangeIsSeenAcross(a, b);
        assertIdChangeIsSeenAcross(b, a);
    }

    private void assertIdChangeIsSeenAcross(Node creator, Node other) {
        Browser browser = new Browser();
        String oldId = Browser.withoutRoute(get(browser, creator, "op=put&name=note&value=kept").get("id"));
        get(browser, creator, "op=append&name=notes&value=n1");
        String oldCookie = browser.cookie();

        Map<String, String> changed = get(browser, other, "op=change-id");
        String newId = Browser.withoutRoute(changed.get("newId"));
        assertEquals(oldId, Browser.withoutRoute(changed.get("oldId")), "changed another session: " + changed);
        assertNotEquals(oldId, newId);
        assertEquals(newId, browser.sessionId(), other + " did not send the new id's cookie");

        assertTrue(stored.exists(newId), "the session is not stored under its new id");
        assertFalse(stored.exists(oldId), "the session is still stored under its old id");
        Map<String, String> moved = get(browser, creator, "op=get");
        assertEquals(newId, Browser.withoutRoute(moved.get("id")), creator + " does not follow the id change: " + moved);
        assertEquals(Map.of("note", "Note(kept)", "notes", "[Note(n1)]"), attributes(moved));
        awaitTheCopiesBound();
        for (Node node : List.of(creator, other)) {
            assertEquals("none", get(Browser.withCookie(oldCookie), node, "op=get").get("id"),
                    node + " still serves the session under its old id");
        }
    }

    /**
     * An id change in the request that created the session (a login form posted by a new visitor
     * rotates the id before anything was stored): the session is stored under the new id only.
     */
    @Test
    void anIdChangeInTheRequestThatCreatedTheSessionKeepsIt() {
        for (Node node : List.of(a, b)) {
            Browser browser = new Browser();
            Answer answer = browser.get(node.session(), "op=change-id");
            assertEquals(200, answer.status(), node + " failed to change the id of the session it had just made:\n"
                    + answer.body());
            String oldId = Browser.withoutRoute(answer.value("oldId"));
            String newId = Browser.withoutRoute(answer.value("newId"));
            assertNotEquals(oldId, newId);
            assertEquals(newId, browser.sessionId(), "the cookie names another id");
            assertTrue(stored.exists(newId), "the new session is not stored under its new id");
            assertFalse(stored.exists(oldId), "the new session is stored under the id it had first");
            assertEquals(newId, Browser.withoutRoute(get(browser, other(node), "op=get").get("id")), "as " + other(node)
                    + " reads it");
        }
    }

    /**
     * Idle expiry is the store's: a session idle longer than its (short) max-inactive interval, set on one
     * node, is gone on the other; one that is used in time on either node stays.
     */
    @Test
    void anIdleSessionExpiresOnEveryNodeAndAnActiveOneDoesNot() throws InterruptedException {
        Browser idle = new Browser();
        get(idle, a, "op=put&name=note&value=idle");
        assertEquals("2", get(idle, a, "op=timeout&seconds=2").get("maxInactive"));
        Browser active = new Browser();
        get(active, a, "op=put&name=note&value=active");
        assertEquals("3", get(active, b, "op=timeout&seconds=3").get("maxInactive"));
        Instant idleSince = Instant.now();
        for (int i = 0; i < 5; i++) {
            Thread.sleep(1_000);
            Map<String, String> seen = get(active, i % 2 == 0 ? a : b, "op=get");
            assertEquals("Note(active)", seen.get("attr.note"), "an active session expired after " + (i + 1) + " s");
        }
        Counters before = b.counters();
        assertEquals("none", get(idle, b, "op=get").get("id"), b + " serves a session idle for "
                + Duration.between(idleSince, Instant.now()).toMillis() + " ms with max-inactive 2 s");
        assertTrue(b.counters().get("expiredOnLoad") > before.get("expiredOnLoad"), "not counted as expired on " + b);
        assertEquals("none", get(idle, a, "op=get").get("id"), a + " serves the expired session");
        assertEquals("3", get(active, a, "op=get").get("maxInactive"), "the active session's interval on " + a);
    }

    /** A node restarted (killed first, as in a crash) serves the sessions it stored, and so does the other. */
    @Test
    void aRestartedNodeServesTheSessionsItStored() throws InterruptedException {
        Browser browser = new Browser();
        get(browser, b, "op=put&name=cart&value=book");
        get(browser, b, "op=append&name=notes&value=in-place");
        Instant killed = Instant.now();
        b.process().kill();
        b.process().restart(TestNodes.START_TIMEOUT);
        Figures.print("restart " + b, "killed and serving again after " + Duration.between(killed, Instant.now()).toMillis()
                + " ms");
        for (Node node : List.of(b, a)) {
            Map<String, String> seen = get(browser, node, "op=get");
            assertEquals("Note(book)", seen.get("attr.cart"), "after " + b + "'s restart, as " + node + " reads it");
            assertEquals("[Note(in-place)]", seen.get("attr.notes"));
        }
    }

    // ---------------------------------------------------------------- logins

    /** Issue #12: the container login travels as a neutral principal, to the other container too, until logout. */
    @Test
    void aContainerLoginOnEitherNodeIsALoginOnTheOtherUntilLogout() {
        assertLoginCrosses(a, b, "alice");
        assertLoginCrosses(b, a, "bob");
    }

    private void assertLoginCrosses(Node loginNode, Node other, String user) {
        Browser browser = new Browser();
        get(browser, loginNode, "op=put&name=cart&value=book");
        String before = browser.sessionId();
        get(browser, loginNode, "op=login&user=" + user + "&password=" + TestNodes.PASSWORD);
        assertNotEquals(before, browser.sessionId(), "the login did not change the session id");

        Map<String, String> who = get(browser, other, "op=whoami&role=" + TestNodes.ROLE);
        assertEquals(user, who.get("user"), user + " logged in on " + loginNode + " is not logged in on " + other);
        assertEquals("true", who.get("inRole"), "the role did not travel with the login");
        Map<String, String> seen = get(browser, other, "op=get");
        assertEquals(user, seen.get("principal"));
        String foreignPrefix = other.kind() == Node.Kind.TOMCAT ? "org.eclipse.jetty." : "org.apache.catalina.";
        assertEquals(List.of(), seen.keySet().stream().filter(key -> key.startsWith("attr." + foreignPrefix)).toList(),
                other + " shows the other container's internal attributes");

        get(browser, other, "op=put&name=afterLogin&value=x");
        assertEquals(user, get(browser, loginNode, "op=whoami").get("user"), other + "'s write dropped the login");
        get(browser, other, "op=logout");
        assertEquals("none", get(browser, loginNode, "op=whoami").get("user"), "logged out on " + other + ", not on "
                + loginNode);
        assertEquals("none", get(browser, other, "op=whoami").get("user"));
        assertEquals("Note(book)", get(browser, loginNode, "op=get").get("attr.cart"), "the logout ended the session");
    }

    /**
     * Issue #10 item 7: with {@code principalAttribute}, the user an application keeps in a session
     * attribute (a name, a Principal, or a Spring Security-like context) is indexed, and "log out
     * everywhere" through {@code SessionRevoker} on either node ends every session of that user.
     */
    @ParameterizedTest(name = "user kept as {0}")
    @ValueSource(strings = {"string", "principal", "spring"})
    void anApplicationLoginIsIndexedAndLogOutEverywhereEndsItOnEveryNode(String form) {
        String user = "app-" + form + "-" + UUID.randomUUID();
        Browser first = new Browser();
        Browser second = new Browser();
        // Each visitor has a session before logging in (a new session's id change is a test of its own).
        get(first, a, "op=put&name=cart&value=book");
        get(first, a, "op=app-login&as=" + form + "&user=" + user);
        get(second, b, "op=create");
        get(second, b, "op=app-login&as=" + form + "&user=" + user);
        get(first, b, "op=put&name=seen&value=on-" + b); // a request on the other node keeps the index entry
        assertTrue(stored.isIndexedUnder(user, first.sessionId()), "the first session is not indexed under " + user);
        assertTrue(stored.isIndexedUnder(user, second.sessionId()), "the second session is not indexed under " + user);

        Counters before = a.counters();
        String revoked = new Browser().get(a.session(), "op=revoke-all&user=" + user).expect(200).value("revoked");
        assertEquals("2", revoked, "sessions revoked through SessionRevoker on " + a);
        assertEquals(2, a.counters().get("revocations") - before.get("revocations"), "revocations counted");
        awaitTheCopiesBound();
        for (Browser browser : List.of(first, second)) {
            for (Node node : List.of(a, b)) {
                assertEquals("none", get(browser, node, "op=get").get("id"), node + " serves a revoked session");
            }
        }
        assertEquals(List.of(), stored.findByUser(user));
    }

    @Test
    void anApplicationLogoutLeavesNothingToRevokeAndTheJmxOperationRevokesToo() {
        String user = "app-jmx-" + UUID.randomUUID();
        Browser loggedOut = new Browser();
        get(loggedOut, a, "op=create");
        get(loggedOut, a, "op=app-login&user=" + user);
        get(loggedOut, b, "op=app-logout");
        Browser loggedIn = new Browser();
        get(loggedIn, b, "op=create");
        get(loggedIn, b, "op=app-login&user=" + user);
        assertEquals("none", get(loggedOut, a, "op=whoami").get("appUser"));

        assertEquals("1", new Browser().get(b.resolve("counters"), "revokeAll=" + user).expect(200).value("revoked"),
                "the MBean's revokeAll on " + b);
        assertEquals("none", get(loggedIn, a, "op=get").get("id"), "the revoked session is served");
        assertNotEquals("none", get(loggedOut, a, "op=get").get("id"), "a session logged out of was revoked");
    }

    // ---------------------------------------------------------------- ids

    /**
     * Issue #10 item 8: the id with any node's route suffix opens the session, reported under the node's
     * own route; ids with other junk open nothing, and a session made for them gets a fresh id.
     */
    @Test
    void routeSuffixesOpenTheSessionAndForgedIdsOpenNothing() {
        Browser victim = new Browser();
        get(victim, a, "op=put&name=secret&value=s1");
        String id = victim.sessionId();
        List<String> suffixed = Stream.of(a.route(), b.route(), "jvm1", "node0").distinct()
                .map(route -> id + "." + route).collect(Collectors.toList());
        suffixed.add(id);
        List<String> forged = List.of(id + ".x.y", id + id, id.substring(0, id.length() - 1) + "." + a.route(),
                id + "." + a.route() + "." + a.route(), id + "..node0", id.substring(1), id + "%00");
        Map<String, String> failures = new LinkedHashMap<>();
        for (Node node : List.of(a, b)) {
            for (String cookie : suffixed) {
                Map<String, String> seen = get(Browser.withCookie(cookie), node, "op=get");
                if (!"Note(s1)".equals(seen.get("attr.secret"))) {
                    failures.put(node + " " + cookie, "did not open the session: " + seen.get("id"));
                } else if (node.kind() == Node.Kind.TOMCAT && !(id + "." + node.route()).equals(seen.get("id"))) {
                    failures.put(node + " " + cookie, "getId() is " + seen.get("id") + ", not the id with " + node
                            + "'s route");
                }
            }
            for (String cookie : forged) {
                Browser forger = Browser.withCookie(cookie);
                Map<String, String> seen = get(forger, node, "op=get");
                if (!"none".equals(seen.get("id"))) {
                    failures.put(node + " " + cookie, "opened " + seen);
                    continue;
                }
                String made = Browser.withoutRoute(get(forger, node, "op=put&name=forged&value=f").get("id"));
                if (made.equals(id) || made.contains(id)) {
                    failures.put(node + " " + cookie, "made a session under the victim's id: " + made);
                }
            }
        }
        assertEquals(Map.of(), failures);
        for (Node node : List.of(a, b)) {
            assertEquals(Map.of("secret", "Note(s1)"), attributes(get(victim, node, "op=get")), "the victim's session on " + node);
        }
    }

    /** Issue #10 item 2: one request with 150 copies of a valid session cookie loads the session once. */
    @Test
    void aHundredAndFiftyCopiesOfTheSessionCookieLoadTheSessionOnce() {
        for (Node node : List.of(a, b)) {
            Browser browser = new Browser();
            get(browser, other(node), "op=put&name=note&value=n");
            String header = IntStream.range(0, 150).mapToObj(i -> "JSESSIONID=" + browser.cookie())
                    .collect(Collectors.joining("; "));
            Counters before = node.counters();
            Map<String, String> seen = browser.get(node.session(), "op=get", Map.of("Cookie", header)).expect(200).values();
            Counters after = node.counters();
            assertEquals("Note(n)", seen.get("attr.note"), node + " did not serve the session: " + seen);
            Figures.print("150 cookies on " + node, "loads=" + (after.get("loads") - before.get("loads")));
            assertEquals(1, after.get("loads") - before.get("loads"), "loads on " + node + " for one request with 150 cookies");
        }
    }

    /**
     * Issue #10 item 2: a {@code ServletRequestListener} that looks the session up before the session
     * manager's valve (Tomcat) does not detach the request's session: its writes are saved, and the
     * session is loaded once per request.
     */
    @Test
    void aSessionLookedUpInARequestListenerFirstStillSavesTheRequestsWrites() {
        Browser browser = new Browser();
        get(browser, a, "op=create");
        for (int i = 1; i <= 6; i++) {
            Node node = i % 2 == 1 ? a : b;
            Counters before = node.counters();
            Map<String, String> answer = browser.get(node.session(), "op=incr&name=count",
                    Map.of(EARLY_LOOKUP_HEADER, "true")).expect(200).values();
            Counters after = node.counters();
            assertEquals("found", answer.get("earlyLookup"), "the listener on " + node + " found no session");
            assertEquals(String.valueOf(i), answer.get("attr.count"), "increment " + i + " on " + node);
            assertEquals(1, after.get("loads") - before.get("loads"), "loads for one request on " + node);
        }
        for (Node node : List.of(a, b)) {
            assertEquals("6", get(browser, node, "op=get").get("attr.count"), "the count as " + node + " reads it");
        }
    }

    // ---------------------------------------------------------------- failures

    /**
     * Issue #10 item 1: a session that cannot be saved (over maxSessionBytes, or an attribute no
     * serializer can write) answers 500, never 2xx, with a body naming no class, key or id, and the stored
     * session is left as it was (this request's other change not saved either).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"big&bytes=1500000", "unserializable"})
    void aSessionThatCannotBeSavedAnswers500AndStaysAsItWas(String operation) {
        for (Node node : List.of(a, b)) {
            Browser browser = new Browser();
            get(browser, other(node), "op=put&name=small&value=v1");
            Counters before = node.counters();
            Answer failed = browser.get(node.session(), "op=" + operation + "&value=v2");
            Counters after = node.counters();
            assertEquals(500, failed.status(), node + " answered the unsaveable request: " + failed.body());
            for (String secret : List.of(browser.sessionId(), "Exception", "io.hbasesessions", "java.", "Kryo")) {
                assertFalse(failed.body().contains(secret), node + "'s failure answer names " + secret + ":\n" + failed.body());
            }
            Figures.print("unsaveable " + operation + " on " + node, "status " + failed.status() + ", write counter deltas "
                    + Counters.nonZero(after.writesSince(before)));
            for (Node reader : List.of(other(node), node)) {
                assertEquals(Map.of("small", "Note(v1)"), attributes(get(browser, reader, "op=get")),
                        "the stored session after the failed save, as " + reader + " reads it");
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /**
     * With {@code stickySessions}, waits {@code stickyStalenessMillis}: what one node changed reaches the other node's
     * copy of the session within that bound (docs/settings.md), and a request that begins later sees it even when it
     * carries that node's route (an old cookie, which takes it to the copy); without the mode, nothing to wait for.
     */
    void awaitTheCopiesBound() {
        try {
            Thread.sleep(copiesBound.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for the copies' bound", e);
        }
    }

    /** {@code GET /session?<query>} on {@code node}: the WAR's {@code key=value} lines; the test fails unless 200. */
    static Map<String, String> get(Browser browser, Node node, String query) {
        return browser.get(node.session(), query).expect(200).values();
    }

    static Map<String, String> hard(Browser browser, Node node, String query) {
        return browser.get(node.resolve("hard"), query).expect(200).values();
    }

    /** Waits until a request waits at the WAR's gate {@code gate} on {@code node}. */
    static void awaitGate(Node node, String gate) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(30);
        while (!"true".equals(new Browser().get(node.resolve("gate"), "waiting=" + gate).expect(200).value("waiting"))) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("No request came to gate " + gate + " on " + node);
            }
            Thread.sleep(20);
        }
    }

    /** The session's attributes as the WAR printed them ({@code attr.<name>} to {@code toString()}), by name. */
    static Map<String, String> attributes(Map<String, String> answer) {
        assertNotNull(answer.get("id"), answer.toString());
        assertNotEquals("none", answer.get("id"), "no session: " + answer);
        return answer.entrySet().stream().filter(entry -> entry.getKey().startsWith("attr."))
                .collect(Collectors.toMap(entry -> entry.getKey().substring("attr.".length()), Map.Entry::getValue));
    }
}
