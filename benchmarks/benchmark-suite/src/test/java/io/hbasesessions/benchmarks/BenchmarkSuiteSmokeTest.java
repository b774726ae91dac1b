package io.hbasesessions.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the whole suite for a few seconds per part, so that it cannot rot: codec (JMH in this JVM),
 * store, a row's rewrites, Shiro's DAO, HTTP (and one hot session over two nodes, and an invalidation's way to another
 * node's copy with stickySessions), scale and sizing against a real
 * embedded HBase, with real Tomcat and Jetty nodes in child JVMs,
 * and one failover run on a cluster of 3 region servers.
 * It uses only what the build brings: the Java load generator instead of wrk, and no Redis or
 * PostgreSQL, whose rows the report lists as not run. The figures are not checked: a build machine
 * measures nothing worth asserting. It needs the packaged WAR, so it runs from the package phase on
 * ({@code mvn verify}); under {@code mvn test} it is skipped.
 */
class BenchmarkSuiteSmokeTest {

    @Test
    void everyPartRunsAndTheReportHasItsTables(@TempDir Path output) throws Exception {
        assumeTrue(isPackaged(), "mvn test stops before the benchmark WAR is packaged; mvn verify runs this test");
        new BenchmarkSuite(SuiteOptions.parse("--smoke", "--output", output.toString(), "--load-generator", "java"))
                .run();

        String results = Files.readString(output.resolve("results.md"));
        for (String expected : List.of("## 1. Codec", "| kryo |", "| java |", "## 1b. State cell protection", "| encrypt |",
                "## 2. Store", "| save after conflict | 8 |", "## 2b. stateProtection", "| hmac |",
                "## 2c. Store cost per request", "| writeOne |", "## 2d. Apache Shiro", "| HBaseSessionDAO | 800 |",
                "## 2e. A session row's rewrites", "| before #29 (NEW_VERSION_BEHAVIOR=true) | 100 | yes |",
                "## 3. End to end over HTTP", "| Tomcat 10.1 | HBaseSessionManager | write every request |",
                "| Jetty 12.1 | HBaseSessionDataStore | read-mostly", "Not run: Redisson, default mode and readMode=MEMORY (no --redis given)",
                "+ HBase (HBaseIndexedSessionRepository) | write every request |",
                "Spring Session JDBC (no --jdbc-url given)",
                "| target (HBase store) |", "## 3b. What expiryEvents costs", "| Jetty 12.1 | write every request |",
                "## 3c. One hot session", "| 16 (8 on Tomcat 10.1, 8 on Jetty 12.1) |",
                "| Tomcat 10.1 | HBaseSessionManager, stickySessions=true | read-mostly",
                "| Jetty 12.1 | HBaseSessionDataStore, stickySessions=true | write every request",
                "## 3a. stickySessions", "| target (stickySessions, issue #31) |",
                "## 3d. Propagation", "| Tomcat 10.1 | HBaseSessionManager, stickySessions=true | 2 | 2 of 2 |",
                "## 4a. Scale", "bytes on disk per session after major compaction",
                "## 4b. Scale", "| HBaseSessionManager, stickySessions=true | 300 | 0 |", "## 7a. Sizing", "| `gz` |", "not loadable here",
                "## 7b. Sizing", "disk, highest sample / live", "## 7c. Sizing", "writes/s per region",
                "## 7d. Sizing", "| after a major compaction |", "## 5. Failover", "| ZooKeeper session timeout 5 s |")) {
            assertTrue(results.contains(expected), "results.md lacks '" + expected + "':\n" + results);
        }
        String endToEnd = results.substring(results.indexOf("## 3. End to end"), results.indexOf("| target (HBase store) |"));
        endToEnd.lines().filter(line -> line.startsWith("| Tomcat 10.1 |") || line.startsWith("| Jetty 12.1 |"))
                .forEach(row -> assertEquals("0", lastCell(row), "HTTP errors in " + row));
        String propagation = results.substring(results.indexOf("## 3d. Propagation"));
        String stickyTrials = propagation.lines().filter(line -> line.startsWith("| Tomcat 10.1 |")).findFirst()
                .orElseThrow();
        // node 1's loads its copy answered, its copies dropped; node 2's announced changes: "2, 2; 2"
        String[] counters = cell(stickyTrials, 8).split("[,;] ");
        assertTrue(Long.parseLong(counters[0]) >= 2, "node 1 read each session from its copy: " + stickyTrials);
        assertTrue(Long.parseLong(counters[1]) >= 1, "node 1 dropped a copy on hearing of the change: " + stickyTrials);
        assertTrue(Long.parseLong(counters[2]) >= 2, "node 2 announced each invalidation: " + stickyTrials);
        String hotSession = results.substring(results.indexOf("## 3c. One hot session"));
        hotSession.lines().filter(line -> line.startsWith("| 1 (") || line.startsWith("| 16 ("))
                .forEach(row -> assertEquals("0", cell(row, 6), "failed requests on the hot session in " + row));
    }

    private static boolean isPackaged() {
        try {
            BenchmarkBuild.benchmarkWar();
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    private static String cell(String row, int column) {
        return row.split("\\|")[column].trim();
    }

    private static String lastCell(String row) {
        String[] cells = row.split("\\|");
        return cells[cells.length - 1].trim();
    }
}
