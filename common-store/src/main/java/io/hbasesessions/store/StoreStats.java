package io.hbasesessions.store;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The sessions table as {@code hbase-sessions stats} shows it: rows per region and per region server,
 * bytes and store files from the region servers' metrics, and age and size histograms of a bounded sample.
 *
 * @param rowCountLimitPerRegion rows are counted up to this many per region; a region at the limit has more
 * @param sample the histograms' sample: the first rows of each region (row keys are hashes, so these are a
 *     uniform sample)
 */
public record StoreStats(String table, long rowCountLimitPerRegion, List<Region> regions,
        Map<String, ServerTotals> servers, Sample sample) {

    public StoreStats {
        regions = List.copyOf(regions);
        servers = Collections.unmodifiableMap(new LinkedHashMap<>(servers));
    }

    /**
     * @param startKeyHex the region's first row key in hex ({@code ""} for the first region)
     * @param rows session rows, ended sessions HBase has not dropped yet included; at most the count limit
     * @param storeFileMiB on disk, from the region server's metrics, which count whole MiB (data still in the
     *     memstore not included)
     */
    public record Region(String name, String startKeyHex, String server, long rows, boolean rowsAtLimit,
            double storeFileMiB, int storeFiles, double memStoreMiB) {
    }

    public record ServerTotals(long regions, long rows, double storeFileMiB, long storeFiles) {
    }

    /**
     * @param requested the sample size asked for
     * @param rows rows sampled
     * @param ended sampled sessions that are over (idle or invalidated) but not yet dropped by HBase
     * @param unreadable sampled rows whose cells this store cannot read (not in the histograms)
     * @param ageHistogram sessions by time since creation, bucket label to count, in order
     * @param sizeHistogram sessions by state cell size, bucket label to count, in order
     */
    public record Sample(int requested, int rows, int ended, int unreadable, Map<String, Long> ageHistogram,
            Map<String, Long> sizeHistogram) {
    }
}
