package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Report;
import io.hbasesessions.store.Setting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Part 4 (node side): the Tomcat node's heap, after full collections, before and after many sessions
 * were created through it. Sessions kept in memory grow it; non-sticky HBase sessions should not. With
 * {@code stickySessions} the node keeps copies of its sessions, as many as {@code stickyCopiesMaxBytes} allows:
 * after the heap is measured, every session is read once through the node (its route is in the cookies), and the
 * reads its copies answered ({@code stickyHits}) count the copies it held.
 */
public final class HeapBenchmark {

    private static final int CONNECTIONS = 8;
    private static final Duration CREATION_TIME_LIMIT = Duration.ofMinutes(10);
    private static final double MEGABYTE = 1024.0 * 1024;

    private final List<Candidate> candidates;
    private final List<Candidate> notRun;
    private final Path workDirectory;

    /** {@code notRun}: the candidates the build's smoke run leaves out, each listed in a row that says so. */
    public HeapBenchmark(List<Candidate> candidates, List<Candidate> notRun, Path workDirectory) {
        this.candidates = candidates;
        this.notRun = notRun;
        this.workDirectory = workDirectory;
    }

    public void run(Report report, int sessions) throws Exception {
        report.heading("4b. Scale: the Tomcat node's heap with " + Report.count(sessions) + " sessions alive");
        List<List<String>> rows = new ArrayList<>();
        for (Candidate candidate : candidates) {
            try (ControlledNode node = ControlledNode.start(candidate, workDirectory.resolve(candidate.name() + "-heap"),
                    workDirectory.resolve(candidate.name() + "-heap.log"), false)) {
                long before = node.heapUsedBytes();
                List<String> cookies = JavaLoadGenerator.createSessions(node.baseUri(), sessions, CONNECTIONS,
                        CREATION_TIME_LIMIT);
                long after = node.heapUsedBytes();
                long inMemory = node.counters().get("activeSessions");
                rows.add(Report.cells(candidate.label(), Report.count(sessions), Report.count(inMemory),
                        copiesHeld(candidate, node, cookies), Report.number(before / MEGABYTE),
                        Report.number(after / MEGABYTE), Report.number((double) (after - before) / sessions)));
            }
        }
        notRun.forEach(candidate -> rows.add(Report.cells(candidate.label(), "not run in the smoke run", "", "", "", "",
                "")));
        report.table(List.of("session manager", "sessions created", "held by the container",
                "copies held (stickyCopiesMaxBytes)", "heap before MB", "heap after MB", "heap bytes per session"), rows);
        report.note("Heap in use after full collections (-Xmx2g, G1). Sessions are alive: created within the last "
                + "minutes, 30-minute timeout. Copies held: with stickySessions, the reads of a pass over every session "
                + "after the heap was measured that the node's copies answered (stickyHits); the others read HBase "
                + "(stickyMisses: no copy, or the node's last read of changesTable too old), and each such read may "
                + "push an unread copy out, so with fewer copies than sessions this is a lower bound.");
    }

    /** With {@code stickySessions}: the copies that answered a read of every session, and the byte budget they had. */
    private static String copiesHeld(Candidate candidate, ControlledNode node, List<String> cookies) throws Exception {
        Map<String, String> settings = candidate.storeSettings();
        if (!Boolean.parseBoolean(settings.get(Setting.STICKY_SESSIONS.name()))) {
            return "-";
        }
        Map<String, Long> before = node.counters();
        long failed = JavaLoadGenerator.readEach(node.baseUri(), cookies, CONNECTIONS, CREATION_TIME_LIMIT);
        if (failed > 0) {
            throw new IllegalStateException(failed + " of " + cookies.size() + " sessions could not be read back on "
                    + candidate.label());
        }
        Map<String, Long> after = node.counters();
        long copies = after.get("stickyHits") - before.get("stickyHits");
        long fromHBase = after.get("stickyMisses") - before.get("stickyMisses");
        long budget = settings.containsKey(Setting.STICKY_COPIES_MAX_BYTES.name())
                ? Long.parseLong(settings.get(Setting.STICKY_COPIES_MAX_BYTES.name()))
                : Setting.STICKY_COPIES_MAX_BYTES.defaultValue().orElseThrow();
        return Report.count(copies) + " (" + Report.count(Math.round(budget / MEGABYTE)) + " MiB; "
                + Report.count(fromHBase) + " read from HBase)";
    }
}
