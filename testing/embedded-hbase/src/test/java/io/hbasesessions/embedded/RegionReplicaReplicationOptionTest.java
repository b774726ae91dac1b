package io.hbasesessions.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hbasesessions.embedded.ServerCommandLine.ClusterSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Region replica replication is an opt-in of the cluster's server processes; the standalone server has none. */
class RegionReplicaReplicationOptionTest {

    private static final String ENABLED = "-Dhbase.region.replica.replication.enabled=true";

    @Test
    void onlyAClusterAskedForItStartsItsMasterAndRegionServersWithIt(@TempDir Path dir) {
        DataDirectory directory = new DataDirectory(dir);
        for (boolean replication : List.of(true, false)) {
            ClusterSettings settings = new ClusterSettings(2181, 16000, Duration.ofSeconds(5), replication);
            List<String> master = ServerCommandLine.masterCommand(Path.of("java"), 256, List.of(), "cp", settings,
                    directory, "master", 3);
            List<String> regionServer = ServerCommandLine.regionServerCommand(Path.of("java"), 320, List.of(), "cp",
                    settings, directory, "regionserver-0", 16020);
            assertEquals(replication, master.contains(ENABLED), master.toString());
            assertEquals(replication, regionServer.contains(ENABLED), regionServer.toString());
        }
    }

    @Test
    void theCommandLineRefusesItWithoutACluster() {
        StringWriter err = new StringWriter();
        int exitCode = EmbeddedHBaseMain.commandLine().setErr(new PrintWriter(err)).execute("--region-replica-replication");
        assertEquals(1, exitCode);
        assertTrue(err.toString().contains("--region-replica-replication needs a cluster: add --region-servers N"),
                err.toString());
    }
}
