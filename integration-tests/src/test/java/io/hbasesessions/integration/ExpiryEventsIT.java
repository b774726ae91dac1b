package io.hbasesessions.integration;

import static org.junit.jupiter.api.Assertions.assertAll;
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
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Issue #15: idle-expiry events, over HTTP, for each container. Three nodes of one container share one
 * HBase and one key scope with {@code expiryEvents=true}. 500 sessions are made round-robin on them, each
 * with a String attribute {@code tag} of its own and a {@code ListeningNote} bound; then one node is
 * killed ({@code kill -9}) before any of them expires. The 20 sessions made last are kept alive by a
 * request every second, each to a surviving node other than the one that made it, for several of their
 * timeouts; the others are left idle. Each idle session must end exactly once fleet-wide, the killed
 * node's included: on a survivor, never before the session expired, one {@code sessionDestroyed} that
 * still reads its tag and runs with the webapp's class loader as its context loader, and one
 * {@code valueUnbound} of a value of the webapp's own class (and {@code attributeRemoved} for both
 * attributes). The kept-alive sessions must not end while
 * in use, and once left alone end exactly once as well. Every 25th idle session gets a request with its
 * cookie half a second after it expired, most likely before the sweep came to it: that request must get
 * a new session, and the old one must still end exactly once. Afterwards no session opens with its old
 * cookie or is still live in the store. What each node's webapp saw is read from its {@code /session?op=endings}.
 *
 * <p>Waits are bounded generously (this runs on a loaded 2-core machine): they end a test that would
 * otherwise hang, they measure nothing; the measured figures are printed as {@code FIGURE} lines.
 */
@ExtendWith(HBaseExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExpiryEventsIT {

    private static final int SESSIONS = 500;
    private static final int KEPT_ALIVE = 20;
    /** Long enough that all sessions are made and a node is killed before the first of them expires (8 s seen). */
    private static final int IDLE_TIMEOUT_SECONDS = 20;
    /** A touch every second leaves room for answers seconds late on a loaded machine. */
    private static final int KEPT_TIMEOUT_SECONDS = 5;
    private static final Duration TOUCH_PERIOD = Duration.ofSeconds(1);
    private static final Duration KEPT_ALIVE_AT_LEAST = Duration.ofSeconds(4L * KEPT_TIMEOUT_SECONDS);
    /** The least the store allows: the waits for events, and for a second delivery (QUIET), scale with it. */
    private static final int EVENT_DELAY_SECONDS = 2;
    /** Every 25th idle session (on each node in turn) is asked for again just after it expired, likely before its sweep. */
    private static final int LATE_LOOKUP_STRIDE = 25;
    private static final Duration LATE_LOOKUP_AFTER_EXPIRY = Duration.ofMillis(500);
    /** The default bucket lease: a bucket claimed by a node that died is swept after it at the latest. */
    private static final int LEASE_TIMEOUT_SECONDS = 30;
    /** After the expected number of events came: long enough for any second delivery to show too. */
    private static final Duration QUIET = Duration.ofSeconds(2L * EVENT_DELAY_SECONDS);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final int CLIENTS = 6;
    private static final int EXAMPLES = 5;
    /** As the test WAR's SessionEndings (a class only the WAR has) names them: the tag attribute, the webapp's loader. */
    private static final String TAG = "tag";
    private static final String WEBAPP_LOADER = "webapp";

    /**
     * The three nodes of each container; the last one is killed. Tomcat 11 and 10.1 side by side: one
     * manager serves both, and their {@code ManagerBase} differ.
     */
    enum Fleet {
        TOMCAT(Node.Kind.TOMCAT, List.of(
                new NodeSpec("tomcat-11-a", NodeProgram.TOMCAT_11, "ta"),
                new NodeSpec("tomcat-10.1-b", NodeProgram.TOMCAT_10_1, "tb"),
                new NodeSpec("tomcat-11-c", NodeProgram.TOMCAT_11, "tc"))),
        JETTY(Node.Kind.JETTY, List.of(
                new NodeSpec("jetty-a", NodeProgram.JETTY_12_1, "node0"),
                new NodeSpec("jetty-b", NodeProgram.JETTY_12_1, "node1"),
                new NodeSpec("jetty-c", NodeProgram.JETTY_12_1, "node2")));

        final Node.Kind kind;
        final List<NodeSpec> nodes;

        Fleet(Node.Kind kind, List<NodeSpec> nodes) {
            this.kind = kind;
            this.nodes = nodes;
        }
    }

    record NodeSpec(String name, NodeProgram program, String route) {
    }

    private EmbeddedHBase hbase;
    private TestNamespace namespace;

    @BeforeAll
    void useTheSharedHBase(EmbeddedHBase hbase, TestNamespace namespace) {
        this.hbase = hbase;
        this.namespace = namespace;
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(Fleet.class)
    void everySessionEndsOnceFleetWideWithItsAttributesEvenAfterANodeDiesAndNoneEndsWhileInUse(Fleet fleet)
            throws Exception {
        Instant began = Instant.now();
        String group = "expiry-" + fleet.name().toLowerCase(Locale.ROOT);
        Map<String, String> settings = TestNodes.storeSettings(hbase, namespace.table(group));
        settings.put("expiryEvents", "true");
        settings.put("expiryEventDelaySeconds", Integer.toString(EVENT_DELAY_SECONDS));
        settings.put("touchIntervalSeconds", "0");
        TestNodes nodes = new TestNodes(group);
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try (StoredSessions stored = TestNodes.inspector(settings)) {
            List<Node> fleetNodes = start(nodes, fleet, settings);
            new Run(fleet, fleetNodes, stored, clients).go();
        } finally {
            clients.shutdownNow();
            nodes.stopAll();
            Figures.print("expiry " + fleet + ": whole run", Duration.between(began, Instant.now()).toSeconds()
                    + " s, logs in " + nodes.directory());
        }
    }

    private static List<Node> start(TestNodes nodes, Fleet fleet, Map<String, String> settings) throws InterruptedException {
        List<Node> started = new ArrayList<>();
        for (NodeSpec spec : fleet.nodes) {
            started.add(new Node(spec.name(), fleet.kind, spec.route(),
                    nodes.start(nodes.node(spec.program(), spec.name()).route(spec.route()).storeSettings(settings))));
        }
        nodes.awaitReady();
        return started;
    }

    /** One container's run: its nodes, the sessions it made, what the survivors' webapps saw. */
    private static final class Run {
        private final Fleet fleet;
        private final List<Node> all;
        private final Node victim;
        private final List<Node> survivors;
        private final StoredSessions stored;
        private final ExecutorService clients;
        private final List<Planned> sessions = new ArrayList<>();

        Run(Fleet fleet, List<Node> all, StoredSessions stored, ExecutorService clients) {
            this.fleet = fleet;
            this.all = all;
            this.victim = all.get(all.size() - 1);
            this.survivors = all.subList(0, all.size() - 1);
            this.stored = stored;
            this.clients = clients;
        }

        void go() throws Exception {
            Instant making = Instant.now();
            makeSessions(SESSIONS - KEPT_ALIVE, false);
            // Last, so that their keepers start within their (shorter) timeout.
            makeSessions(KEPT_ALIVE, true);
            Figures.print("expiry " + fleet + ": " + SESSIONS + " sessions made", Duration.between(making, Instant.now())
                    .toMillis() + " ms with " + CLIENTS + " clients");
            victim.process().kill();
            Instant killed = Instant.now();
            Instant firstExpiry = sessions.stream().map(Planned::expiry).min(Instant::compareTo).orElseThrow();
            assertTrue(killed.isBefore(firstExpiry), "The test made its sessions too slowly to tell: " + victim
                    + " was killed at " + killed + ", after the first session expired (" + firstExpiry + "); raise "
                    + "IDLE_TIMEOUT_SECONDS");

            List<Planned> lookedUpLate = sessions.stream().filter(Planned::lookedUpLate).toList();
            ScheduledExecutorService lateLookups = lookUpJustAfterExpiry(lookedUpLate);
            List<Planned> kept = sessions.stream().filter(Planned::keptAlive).toList();
            Endings whileKept = keepAliveWhileTheOthersEnd(kept);
            awaitDestroyed(SESSIONS, Instant.now().plus(eventBound(KEPT_TIMEOUT_SECONDS)));
            Thread.sleep(QUIET.toMillis());
            lateLookups.shutdown();
            assertTrue(lateLookups.awaitTermination(60, TimeUnit.SECONDS), "a late lookup did not end");
            Endings endings = Endings.readFrom(survivors);
            printFigures(endings);
            // Every check, so that one failure does not hide the others.
            List<Executable> checks = new ArrayList<>(keptSessionChecks(kept, whileKept));
            checks.addAll(lateLookupChecks(lookedUpLate));
            checks.addAll(endedOnceChecks(endings));
            checks.addAll(goneChecks());
            checks.add(() -> assertEquals(endings.destroyed().size(), survivorsCount("destroyed"), "sessionDestroyed "
                    + "events came after the requests with the ended sessions' cookies"));
            checks.add(() -> assertEquals(2L * SESSIONS, survivorsCount("attributeRemoved"), "attributeRemoved events on "
                    + "the survivors: the tag and the ListeningNote of each session, nothing else removes attributes here"));
            assertAll(fleet + ", " + victim + " killed", checks);
        }

        /** Round-robin on all nodes, a small pool of clients at once; each session in one request. */
        private void makeSessions(int count, boolean keptAlive) throws InterruptedException, ExecutionException {
            int first = sessions.size();
            List<Planned> batch = IntStream.range(first, first + count).mapToObj(index -> plan(index, keptAlive)).toList();
            runAll(batch.stream().map(planned -> (Callable<Void>) () -> {
                planned.make();
                return null;
            }).toList());
            sessions.addAll(batch);
        }

        private Planned plan(int index, boolean keptAlive) {
            return new Planned("s" + index, all.get(index % all.size()), keptAlive,
                    !keptAlive && index % LATE_LOOKUP_STRIDE == 0);
        }

        /** Each on a survivor, {@link #LATE_LOOKUP_AFTER_EXPIRY} after its session expired; shut down to await them. */
        private ScheduledExecutorService lookUpJustAfterExpiry(List<Planned> lookedUpLate) {
            ScheduledExecutorService lookups = Executors.newScheduledThreadPool(2);
            for (int i = 0; i < lookedUpLate.size(); i++) {
                Planned planned = lookedUpLate.get(i);
                Node node = survivors.get(i % survivors.size());
                long delayMillis = Duration.between(Instant.now(), planned.expiry().plus(LATE_LOOKUP_AFTER_EXPIRY)).toMillis();
                lookups.schedule(() -> planned.lookUpLate(node), delayMillis, TimeUnit.MILLISECONDS);
            }
            return lookups;
        }

        /**
         * Touches the kept sessions until the idle ones have all ended (or the bound passed) and for several
         * of the kept sessions' timeouts at least; returns what the survivors saw until then.
         */
        private Endings keepAliveWhileTheOthersEnd(List<Planned> kept) throws InterruptedException {
            ScheduledExecutorService keepers = Executors.newScheduledThreadPool(4);
            Instant keepingSince = Instant.now();
            try {
                for (Planned planned : kept) {
                    keepers.scheduleAtFixedRate(() -> planned.touch(survivors), 0, TOUCH_PERIOD.toMillis(),
                            TimeUnit.MILLISECONDS);
                }
                awaitDestroyed(SESSIONS - KEPT_ALIVE, Instant.now().plus(eventBound(IDLE_TIMEOUT_SECONDS)));
                Instant keptLongEnough = keepingSince.plus(KEPT_ALIVE_AT_LEAST);
                while (Instant.now().isBefore(keptLongEnough)) {
                    Thread.sleep(POLL.toMillis());
                }
                return Endings.readFrom(survivors);
            } finally {
                keepers.shutdown();
                assertTrue(keepers.awaitTermination(60, TimeUnit.SECONDS), "a touch did not end");
                Figures.print("expiry " + fleet + ": sessions kept alive", kept.size() + " for "
                        + Duration.between(keepingSince, Instant.now()).toSeconds() + " s, touches answered at most "
                        + kept.stream().mapToLong(Planned::longestTouchGapMillis).max().orElse(0) + " ms apart");
            }
        }

        private List<Executable> keptSessionChecks(List<Planned> kept, Endings whileKept) {
            Map<String, Planned> keptById = byId(kept);
            return List.of(
                    () -> assertEquals(List.of(), examples(kept.stream().filter(planned -> planned.longestTouchGapMillis()
                            >= KEPT_TIMEOUT_SECONDS * 1000L).toList()), "The test's touches came too far apart to keep "
                            + "these sessions alive (timeout " + KEPT_TIMEOUT_SECONDS + " s): cannot judge them"),
                    () -> assertEquals(List.of(), examples(whileKept.destroyed().stream()
                            .filter(ending -> keptById.containsKey(ending.id())).toList()),
                            "sessionDestroyed for sessions in use (touched every second)"),
                    () -> assertEquals(List.of(), examples(whileKept.unbound().stream()
                            .filter(ending -> keptById.containsKey(ending.id())).toList()),
                            "valueUnbound for sessions in use"),
                    () -> assertEquals(List.of(), examples(kept.stream().flatMap(planned -> planned.touchFailures().stream())
                            .toList()), "touches that did not find their session as it was made"));
        }

        /** Whether the expired session stayed ended for a request just after its expiry; its own end is checked with all. */
        private List<Executable> lateLookupChecks(List<Planned> lookedUpLate) {
            return List.of(() -> assertEquals(List.of(), examples(lookedUpLate.stream()
                    .filter(planned -> !planned.lateLookupGotANewSession()).map(Planned::lateLookup).toList()),
                    "requests with an expired session's cookie that did not get a new session of their own"));
        }

        private List<Executable> endedOnceChecks(Endings endings) {
            Map<String, Planned> planned = byId(sessions);
            Map<String, List<Ending>> destroyed = endings.destroyed().stream().collect(Collectors.groupingBy(Ending::id));
            Map<String, List<Ending>> unbound = endings.unbound().stream().collect(Collectors.groupingBy(Ending::id));
            List<Executable> checks = new ArrayList<>();
            checks.add(() -> assertEquals(List.of(), examples(sessions.stream()
                    .filter(session -> !destroyed.containsKey(session.id)).toList()),
                    "sessions without a sessionDestroyed on any survivor (" + missingByCreator(destroyed) + ")"));
            checks.add(() -> assertEquals(List.of(), examples(repeated(destroyed)), "sessions destroyed more than once"));
            checks.add(() -> assertEquals(List.of(), examples(endings.destroyed().stream()
                    .filter(ending -> !planned.containsKey(ending.id())).toList()), "sessionDestroyed for ids never made"));
            checks.add(() -> assertEquals(List.of(), examples(endings.destroyed().stream()
                    .filter(ending -> planned.containsKey(ending.id())
                            && !planned.get(ending.id()).tag.equals(ending.field("tag"))).toList()),
                    "sessionDestroyed that did not read the session's tag attribute"));
            checks.add(() -> assertEquals(List.of(), examples(endings.destroyed().stream()
                    .filter(ending -> !ending.isWebapp("listenerLoader")).toList()),
                    "sessionDestroyed whose ListeningNote attribute is not of the webapp's class (or missing)"));
            checks.add(() -> assertEquals(List.of(), examples(sessions.stream()
                    .filter(session -> !unbound.containsKey(session.id)).toList()),
                    "sessions whose ListeningNote got no valueUnbound"));
            checks.add(() -> assertEquals(List.of(), examples(repeated(unbound)), "values unbound more than once"));
            checks.add(() -> assertEquals(List.of(), examples(endings.unbound().stream()
                    .filter(ending -> planned.containsKey(ending.id())
                            && !planned.get(ending.id()).tag.equals(ending.field("text"))).toList()),
                    "valueUnbound of another session's value"));
            checks.add(() -> assertEquals(List.of(), examples(endings.unbound().stream()
                    .filter(ending -> !ending.isWebapp("valueLoader")).toList()),
                    "valueUnbound of a value not loaded by the webapp's class loader"));
            // Only sessionDestroyed: Jetty calls valueUnbound outside the context's scope, on its own expiry too.
            checks.add(() -> assertEquals(List.of(), examples(endings.destroyed().stream()
                    .filter(ending -> !ending.isWebapp("contextLoader")).toList()),
                    "sessionDestroyed fired without the webapp's class loader as the thread's context loader"));
            checks.add(() -> assertEquals(List.of(), examples(endings.all()
                    .filter(ending -> planned.containsKey(ending.id())
                            && ending.at().isBefore(planned.get(ending.id()).expiry())).toList()),
                    "events before the session expired (its last request plus its timeout)"));
            return checks;
        }

        /** Asks a survivor for each session with its old cookie, and the store whether it still reads it as live. */
        private List<Executable> goneChecks() throws InterruptedException, ExecutionException {
            List<String> served = new ArrayList<>();
            List<String> storedStill = new ArrayList<>();
            runAll(sessions.stream().map(session -> (Callable<Void>) () -> {
                Node node = survivors.get(Math.floorMod(session.tag.hashCode(), survivors.size()));
                Answer answer = Browser.withCookie(session.madeCookie()).get(node.session(), "op=get").expect(200);
                if (answer.hasSession()) {
                    synchronized (served) {
                        served.add(session + " on " + node + ": " + answer.values());
                    }
                }
                if (stored.exists(session.id)) {
                    synchronized (storedStill) {
                        storedStill.add(session.toString());
                    }
                }
                return null;
            }).toList());
            return List.of(
                    () -> assertEquals(List.of(), examples(served), "ended sessions served with their old cookie"),
                    () -> assertEquals(List.of(), examples(storedStill), "ended sessions the store still reads as live"));
        }

        private void awaitDestroyed(int expected, Instant deadline) throws InterruptedException {
            while (survivorsCount("destroyed") < expected && Instant.now().isBefore(deadline)) {
                Thread.sleep(POLL.toMillis());
            }
        }

        /** The survivors' session events of one kind so far ({@code destroyed}, ...), as their webapps count them. */
        private long survivorsCount(String event) {
            return survivors.stream().mapToLong(node -> Long.parseLong(new Browser().get(node.session(), "op=events")
                    .expect(200).value(event))).sum();
        }

        private String missingByCreator(Map<String, List<Ending>> destroyed) {
            Map<String, Long> missing = sessions.stream().filter(session -> !destroyed.containsKey(session.id))
                    .collect(Collectors.groupingBy(session -> "made on " + session.creator, TreeMap::new,
                            Collectors.counting()));
            return missing.isEmpty() ? "none" : missing.toString();
        }

        private void printFigures(Endings endings) {
            Map<String, Planned> planned = byId(sessions);
            Map<String, Long> byNode = endings.destroyed().stream().collect(Collectors.groupingBy(
                    ending -> ending.node().name(), TreeMap::new, Collectors.counting()));
            Figures.print("expiry " + fleet + ": sessionDestroyed by survivor", byNode + ", valueUnbound "
                    + endings.unbound().size() + ", " + victim + " killed");
            long victimsSessions = endings.destroyed().stream().filter(ending -> planned.containsKey(ending.id())
                    && planned.get(ending.id()).creator == victim).count();
            Figures.print("expiry " + fleet + ": sessions made on the killed node that ended on a survivor",
                    victimsSessions + " of " + sessions.stream().filter(session -> session.creator == victim).count());
            Map<String, Instant> destroyedAt = endings.destroyed().stream().collect(Collectors.toMap(Ending::id, Ending::at,
                    (first, second) -> first));
            List<Planned> lookedUpLate = sessions.stream().filter(Planned::lookedUpLate).toList();
            Figures.print("expiry " + fleet + ": late lookups sent before their session's sessionDestroyed", lookedUpLate.stream()
                    .filter(session -> session.lateLookupSent() != null && destroyedAt.containsKey(session.id)
                            && session.lateLookupSent().isBefore(destroyedAt.get(session.id))).count()
                    + " of " + lookedUpLate.size());
            List<Long> lags = endings.destroyed().stream().filter(ending -> planned.containsKey(ending.id()))
                    .map(ending -> Duration.between(planned.get(ending.id()).expiry(), ending.at()).toMillis())
                    .sorted().toList();
            if (!lags.isEmpty()) {
                Figures.print("expiry " + fleet + ": sessionDestroyed after the session expired", String.format(Locale.ROOT,
                        "median %d ms, max %d ms (expiryEventDelaySeconds %d)", lags.get(lags.size() / 2),
                        lags.get(lags.size() - 1), EVENT_DELAY_SECONDS));
            }
        }

        private void runAll(List<Callable<Void>> tasks) throws InterruptedException, ExecutionException {
            for (Future<Void> done : clients.invokeAll(tasks)) {
                done.get();
            }
        }
    }

    /** The bound for events of sessions with this timeout, from now: generous, see the class comment. */
    private static Duration eventBound(int timeoutSeconds) {
        return Duration.ofSeconds(timeoutSeconds + 3L * EVENT_DELAY_SECONDS + LEASE_TIMEOUT_SECONDS + 30);
    }

    private static Map<String, Planned> byId(List<Planned> sessions) {
        return sessions.stream().collect(Collectors.toMap(session -> session.id, Function.identity()));
    }

    private static List<String> repeated(Map<String, List<Ending>> byId) {
        return byId.values().stream().filter(endings -> endings.size() > 1).map(List::toString).toList();
    }

    /** The first few of {@code items}, and how many there are: enough to diagnose, short enough to read. */
    private static List<String> examples(Collection<?> items) {
        if (items.isEmpty()) {
            return List.of();
        }
        List<String> shown = new ArrayList<>(List.of(items.size() + " in all; the first:"));
        items.stream().limit(EXAMPLES).map(String::valueOf).forEach(shown::add);
        return shown;
    }

    /** A session of the test: its visitor, the node that made it, its tag; touched by a keeper if kept alive. */
    private static final class Planned {
        final String tag;
        final Node creator;
        final boolean keptAlive;
        final boolean lookedUpLate;
        final Browser browser = new Browser();
        String id;
        private String madeCookie;
        private Instant lastSent;
        private Instant lateLookupSent;
        private String lateLookup = "not sent";
        private boolean lateLookupGotANewSession;
        private long longestTouchGapMillis;
        private int touches;
        private final List<String> touchFailures = new ArrayList<>();

        Planned(String tag, Node creator, boolean keptAlive, boolean lookedUpLate) {
            this.tag = tag;
            this.creator = creator;
            this.keptAlive = keptAlive;
            this.lookedUpLate = lookedUpLate;
        }

        boolean keptAlive() {
            return keptAlive;
        }

        boolean lookedUpLate() {
            return lookedUpLate;
        }

        int timeoutSeconds() {
            return keptAlive ? KEPT_TIMEOUT_SECONDS : IDLE_TIMEOUT_SECONDS;
        }

        void make() {
            Instant sent = Instant.now();
            Answer answer = browser.get(creator.session(), "op=tag&tag=" + tag + "&seconds=" + timeoutSeconds()).expect(200);
            assertEquals(tag, answer.attribute(TAG), "the new session on " + creator + ": " + answer.body());
            assertEquals(Integer.toString(timeoutSeconds()), answer.value("maxInactive"), creator + " kept another interval");
            synchronized (this) {
                id = browser.sessionId();
                madeCookie = browser.cookie();
                lastSent = sent;
            }
        }

        /** A request that makes a session, with the cookie of this expired one: it must get one of its own. */
        void lookUpLate(Node node) {
            Instant sent = Instant.now();
            String outcome;
            boolean newSession = false;
            try {
                Answer answer = browser.get(node.session(), "op=create");
                String answeredId = answer.values().get("id");
                newSession = answer.hasSession() && !id.equals(Browser.withoutRoute(answeredId))
                        && answer.attribute(TAG) == null;
                outcome = "HTTP " + answer.status() + " " + answer.values();
            } catch (AssertionError e) {
                outcome = e.getMessage();
            }
            synchronized (this) {
                lateLookupSent = sent;
                lateLookupGotANewSession = newSession;
                lateLookup = this + " looked up on " + node + " at " + sent + ": " + outcome;
            }
        }

        /**
         * One request to the next survivor other than the creator. A touch that finds no session, or gets no
         * answer, is a failure recorded, not thrown: a periodic task that throws is never run again.
         */
        void touch(List<Node> survivors) {
            List<Node> others = survivors.stream().filter(node -> node != creator).toList();
            Node target;
            Instant sent;
            synchronized (this) {
                target = others.get(touches++ % others.size());
                sent = Instant.now();
            }
            String failure;
            try {
                Answer answer = browser.get(target.session(), "op=get");
                failure = answer.status() == 200 && tag.equals(answer.attribute(TAG)) ? null
                        : "HTTP " + answer.status() + " " + answer.values();
            } catch (AssertionError e) {
                failure = e.getMessage();
            }
            Instant answered = Instant.now();
            synchronized (this) {
                longestTouchGapMillis = Math.max(longestTouchGapMillis, Duration.between(lastSent, answered).toMillis());
                lastSent = sent;
                if (failure != null) {
                    touchFailures.add(this + " touched on " + target + " at " + sent + ": " + failure);
                }
            }
        }

        synchronized Instant expiry() {
            return lastSent.plusSeconds(timeoutSeconds());
        }

        synchronized long longestTouchGapMillis() {
            return longestTouchGapMillis;
        }

        synchronized List<String> touchFailures() {
            return List.copyOf(touchFailures);
        }

        synchronized String madeCookie() {
            return madeCookie;
        }

        synchronized Instant lateLookupSent() {
            return lateLookupSent;
        }

        synchronized String lateLookup() {
            return lateLookup;
        }

        synchronized boolean lateLookupGotANewSession() {
            return lateLookupGotANewSession;
        }

        @Override
        public synchronized String toString() {
            return tag + " (" + id + ", made on " + creator + (keptAlive ? ", kept alive" : "")
                    + (lookedUpLate ? ", looked up late" : "") + ")";
        }
    }

    /** One record of a node's webapp ({@code destroyed.<n>.<field>} or {@code unbound.<n>.<field>} lines). */
    record Ending(Node node, String kind, Map<String, String> fields) {

        String id() {
            return field("id");
        }

        String field(String name) {
            return fields.get(name);
        }

        Instant at() {
            return Instant.ofEpochMilli(Long.parseLong(field("atMillis")));
        }

        boolean isWebapp(String loaderField) {
            return WEBAPP_LOADER.equals(field(loaderField));
        }

        @Override
        public String toString() {
            return kind + " on " + node + " " + fields;
        }
    }

    /** What the survivors' webapps recorded, read at one moment. */
    record Endings(List<Ending> destroyed, List<Ending> unbound) {

        static Endings readFrom(List<Node> nodes) {
            List<Ending> destroyed = new ArrayList<>();
            List<Ending> unbound = new ArrayList<>();
            for (Node node : nodes) {
                Map<String, String> lines = new Browser().get(node.session(), "op=endings").expect(200).values();
                destroyed.addAll(parse(node, "destroyed", lines));
                unbound.addAll(parse(node, "unbound", lines));
            }
            return new Endings(destroyed, unbound);
        }

        Stream<Ending> all() {
            return Stream.concat(destroyed.stream(), unbound.stream());
        }

        private static List<Ending> parse(Node node, String kind, Map<String, String> lines) {
            Map<Integer, Map<String, String>> byNumber = new TreeMap<>();
            lines.forEach((key, value) -> {
                String[] parts = key.split("\\.", 3);
                if (parts.length == 3 && parts[0].equals(kind)) {
                    byNumber.computeIfAbsent(Integer.parseInt(parts[1]), n -> new LinkedHashMap<>()).put(parts[2], value);
                }
            });
            return byNumber.values().stream().map(fields -> new Ending(node, kind, fields)).toList();
        }
    }
}
