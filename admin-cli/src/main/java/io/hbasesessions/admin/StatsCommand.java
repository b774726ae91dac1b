package io.hbasesessions.admin;

import io.hbasesessions.store.SessionStores;
import io.hbasesessions.store.StoreAdministration;
import io.hbasesessions.store.StoreSettings;
import io.hbasesessions.store.StoreStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "stats", description = "Rows of the sessions table per region and per region server, bytes on disk "
        + "and store files (the region servers' metrics), and age and size histograms of a bounded sample.")
final class StatsCommand extends StoreCommand {

    private static final int MAX_SAMPLE = 100_000;

    @Option(names = "--sample", paramLabel = "ROWS", description = "Rows the histograms are made of, taken from the "
            + "start of every region (row keys are hashes: a uniform sample). At most " + MAX_SAMPLE
            + ". Default: ${DEFAULT-VALUE}.")
    int sample = 1_000;

    @Option(names = "--count-limit", paramLabel = "ROWS", description = "Rows are counted (a key-only scan) up to "
            + "this many per region. Default: ${DEFAULT-VALUE}.")
    long countLimit = 100_000;

    @Override
    int run(StoreSettings settings) {
        if (sample < 1 || sample > MAX_SAMPLE || countLimit < 1) {
            throw new IllegalArgumentException("--sample must be 1 to " + MAX_SAMPLE + " and --count-limit at least 1");
        }
        try (StoreAdministration admin = SessionStores.administer(settings)) {
            StoreStats stats = admin.stats(sample, countLimit);
            StoreStats.Sample sampled = stats.sample();
            long rows = stats.regions().stream().mapToLong(StoreStats.Region::rows).sum();
            boolean atLeast = stats.regions().stream().anyMatch(StoreStats.Region::rowsAtLimit);
            return answer(Report.of("table", stats.table(), "rows", rows, "rowsAreALowerBound", atLeast,
                    "rowsCountedUpToPerRegion", stats.rowCountLimitPerRegion(),
                    "regions", stats.regions().stream().map(region -> Report.of("region", region.name(),
                            "startKey", region.startKeyHex(), "server", region.server(), "rows", region.rows(),
                            "rowsAtLimit", region.rowsAtLimit(), "storeFileMiB", region.storeFileMiB(),
                            "storeFiles", region.storeFiles(), "memStoreMiB", region.memStoreMiB())).toList(),
                    "servers", stats.servers().entrySet().stream().map(server -> Report.of("server", server.getKey(),
                            "regions", server.getValue().regions(), "rows", server.getValue().rows(),
                            "storeFileMiB", server.getValue().storeFileMiB(),
                            "storeFiles", server.getValue().storeFiles())).toList(),
                    "sample", Report.of("note", "a sample of " + sampled.rows() + " rows (" + sampled.requested()
                                    + " asked for), the first rows of every region",
                            "requested", sampled.requested(), "rows", sampled.rows(), "ended", sampled.ended(),
                            "unreadable", sampled.unreadable(), "ageSinceCreation", sampled.ageHistogram(),
                            "stateSize", sampled.sizeHistogram())), ExitCodes.OK);
        }
    }
}
