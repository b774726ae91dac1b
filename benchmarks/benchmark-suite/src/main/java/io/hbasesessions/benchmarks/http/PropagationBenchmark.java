package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Report;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Part propagation (issue #31): how long a change made through one node takes to reach another node that holds a
 * copy of the session, for each setup that keeps copies in a node's memory. Two nodes of one candidate share its
 * backend, each with a route of its own. A trial makes a session on node 1 and reads it there (node 1 now holds it),
 * invalidates it through node 2 with the cookie node 1 issued (a request the balancer sent elsewhere, a logout on
 * another node), then asks node 1 for it every {@link #POLL_INTERVAL} with that cookie until node 1 answers that it
 * is gone: the time from node 2's answer to the start of that poll. A trial that does not see it gone within the cap
 * ends the setup's trials: the rest would only wait as long again.
 */
public final class PropagationBenchmark {

    /** How often node 1 is asked, and so the resolution of every time measured. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(20);
    private static final int OK = 200;
    /** The benchmark servlet's answer to a request whose session is gone. */
    private static final int GONE = 409;

    /**
     * A candidate to run on two nodes, and the bound its documentation states for a change to reach the other
     * nodes' copies, if any.
     */
    public record Setup(Candidate candidate, Optional<Duration> statedBound) {
    }

    /** What the trials saw: the times of those that saw the session gone, and whether one never did. */
    private record Trials(List<Duration> noticed, int run, boolean capped) {
    }

    private final List<Setup> setups;
    private final List<String> notRun;
    private final Path workDirectory;
    private final int trials;
    private final Duration cap;

    /** {@code notRun}: the setups left out and why (a peer not given, or the smoke run), for the report's note. */
    public PropagationBenchmark(List<Setup> setups, List<String> notRun, Path workDirectory, int trials, Duration cap) {
        this.setups = setups;
        this.notRun = notRun;
        this.workDirectory = workDirectory;
        this.trials = trials;
        this.cap = cap;
    }

    public void run(Report report) throws Exception {
        report.heading("3d. Propagation: a session invalidated through node 2, until node 1 no longer shows it");
        List<List<String>> rows = new ArrayList<>();
        for (Setup setup : setups) {
            Candidate candidate = setup.candidate();
            try (ControlledNode first = start(candidate.onRoute("node1"), "1");
                    ControlledNode second = start(candidate.onRoute("node2"), "2")) {
                Map<String, Long> firstBefore = first.counters();
                Map<String, Long> secondBefore = second.counters();
                Trials seen = trials(first, second);
                rows.add(row(setup, seen, difference(firstBefore, first.counters()),
                        difference(secondBefore, second.counters())));
            }
        }
        report.table(List.of("container", "session store", "trials", "node 1 saw it gone within "
                + Report.seconds(cap) + " s", "median ms", "max ms", "stated bound (within it?)",
                "node 1: loads its copy answered, copies dropped; node 2: changes announced"), rows);
        report.note("Two nodes of each setup on one backend, routes node1 and node2. Per trial: a session made on "
                + "node 1 and read there, invalidated through node 2 with node 1's cookie, then node 1 asked for it every "
                + POLL_INTERVAL.toMillis() + " ms with the same cookie; the time from node 2's answer to the start of "
                + "the first request that found it gone (so each time is late by up to one poll interval). A trial "
                + "that does not see it gone within " + Report.seconds(cap) + " s ends the setup's trials. Stated "
                + "bound: stickyStalenessMillis (its default) for the HBase store, plus one poll interval; none for "
                + "the peers. The counters (the HBase store's) show that node 1 answered its reads from its copy and "
                + "dropped it on hearing of the change, and that node 2 announced it."
                + (notRun.isEmpty() ? "" : " Not run: " + String.join("; ", notRun) + "."));
    }

    private Trials trials(ControlledNode first, ControlledNode second) throws Exception {
        List<Duration> noticed = new ArrayList<>();
        try (HttpConnection toFirst = new HttpConnection(first.baseUri());
                HttpConnection toSecond = new HttpConnection(second.baseUri())) {
            for (int trial = 1; trial <= trials; trial++) {
                String cookie = expect(toFirst.get("init", null), OK, "init on node 1").cookie();
                if (cookie == null) {
                    throw new IllegalStateException("node 1 made a session without a cookie");
                }
                expect(toFirst.get("read", cookie), OK, "the read on node 1");
                expect(toSecond.get("invalidate", cookie), OK, "the invalidation through node 2");
                Optional<Duration> gone = untilGone(toFirst, cookie, System.nanoTime());
                if (gone.isEmpty()) {
                    return new Trials(noticed, trial, true);
                }
                noticed.add(gone.get());
            }
        }
        return new Trials(noticed, trials, false);
    }

    /** Asks node 1 every poll interval from {@code changed}; the time to the first request that found it gone. */
    private Optional<Duration> untilGone(HttpConnection toFirst, String cookie, long changed) throws Exception {
        for (long poll = 0; ; poll++) {
            long wait = changed + poll * POLL_INTERVAL.toNanos() - System.nanoTime();
            if (wait > 0) {
                Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
            }
            long sent = System.nanoTime();
            if (sent - changed > cap.toNanos()) {
                return Optional.empty();
            }
            int status = toFirst.get("read", cookie).status();
            if (status == GONE) {
                return Optional.of(Duration.ofNanos(sent - changed));
            }
            if (status != OK) {
                throw new IllegalStateException("node 1 answered " + status + " while it was polled");
            }
        }
    }

    private static HttpConnection.Answer expect(HttpConnection.Answer answer, int status, String what) {
        if (answer.status() != status) {
            throw new IllegalStateException(what + " answered " + answer.status() + ", not " + status);
        }
        return answer;
    }

    private List<String> row(Setup setup, Trials seen, Map<String, Long> first, Map<String, Long> second) {
        Candidate candidate = setup.candidate();
        List<Duration> sorted = seen.noticed().stream().sorted().toList();
        String median = sorted.isEmpty() ? "-" : millis(sorted.get(sorted.size() / 2));
        String max = seen.capped() ? "not within " + Report.seconds(cap) + " s"
                : sorted.isEmpty() ? "-" : millis(sorted.get(sorted.size() - 1));
        String noticed = seen.noticed().size() + " of " + seen.run() + (seen.capped() && seen.run() < trials
                ? " (the other " + (trials - seen.run()) + " not run)" : "");
        String bound = setup.statedBound().map(stated -> {
            Duration withPoll = stated.plus(POLL_INTERVAL);
            boolean within = !seen.capped() && !sorted.isEmpty() && sorted.get(sorted.size() - 1).compareTo(withPoll) <= 0;
            return stated.toMillis() + " + " + POLL_INTERVAL.toMillis() + " ms (" + (within ? "yes" : "no") + ")";
        }).orElse("none stated");
        String counters = candidate.countsHBaseWrites()
                ? first.get("stickyHits") + ", " + first.get("stickyInvalidations") + "; " + second.get("changesAnnounced")
                : "n/a";
        return Report.cells(candidate.container(), candidate.label(), seen.run(), noticed, median, max, bound, counters);
    }

    private static String millis(Duration duration) {
        return Report.number(duration.toNanos() / 1e6);
    }

    private static Map<String, Long> difference(Map<String, Long> before, Map<String, Long> after) {
        Map<String, Long> difference = new LinkedHashMap<>();
        after.forEach((name, value) -> difference.put(name, value - before.getOrDefault(name, 0L)));
        return difference;
    }

    private ControlledNode start(Candidate candidate, String node) throws IOException, InterruptedException {
        String name = candidate.name() + "-propagation-" + node;
        return ControlledNode.start(candidate, workDirectory.resolve(name), workDirectory.resolve(name + ".log"), false);
    }
}
