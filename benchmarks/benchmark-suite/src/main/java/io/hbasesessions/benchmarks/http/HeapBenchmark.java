package io.hbasesessions.benchmarks.http;

import io.hbasesessions.benchmarks.Report;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Part 4 (node side): the Tomcat node's heap, after full collections, before and after many sessions
 * were created through it. Sessions kept in memory grow it; non-sticky HBase sessions should not.
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
                JavaLoadGenerator.createSessions(node.baseUri(), sessions, CONNECTIONS, CREATION_TIME_LIMIT);
                long after = node.heapUsedBytes();
                long inMemory = node.counters().get("activeSessions");
                rows.add(Report.cells(candidate.label(), Report.count(sessions), Report.count(inMemory),
                        Report.number(before / MEGABYTE), Report.number(after / MEGABYTE),
                        Report.number((double) (after - before) / sessions)));
            }
        }
        notRun.forEach(candidate -> rows.add(Report.cells(candidate.label(), "not run in the smoke run", "", "", "", "")));
        report.table(List.of("session manager", "sessions created", "held by the node", "heap before MB",
                "heap after MB", "heap bytes per session"), rows);
        report.note("Heap in use after full collections (-Xmx2g, G1). Sessions are alive: created within the last "
                + "minutes, 30-minute timeout.");
    }
}
