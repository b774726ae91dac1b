package io.hbasesessions.store;

/**
 * The block compression of the tables' family, by HBase's {@code Compression.Algorithm} name. The region
 * servers (and the master, which test-loads the codec when a table is created) must be able to load it: each
 * codec but {@link #NONE} and {@link #GZ} needs a native library or an extra jar on the servers, named by
 * their {@code hbase.io.compress.<name>.codec} setting.
 */
public enum TableCompression {
    /** No compression: FAST_DIFF encoding alone (the default). */
    NONE,
    /** Deflate: pure Java in every HBase, the smallest files of these, the most CPU. */
    GZ,
    /** Snappy: fast; Hadoop's codec uses snappy-java, or hbase-compression-aircompressor's pure-Java one. */
    SNAPPY,
    /** LZ4: fast; Hadoop's codec needs lz4-java on the servers, or hbase-compression-aircompressor. */
    LZ4,
    /** Zstandard: near GZ's size at LZ4-like speed; Hadoop's codec needs native libhadoop, or hbase-compression-zstd. */
    ZSTD;

    /** The server-side setting that names the codec class for this algorithm. */
    String codecSetting() {
        return "hbase.io.compress." + name().toLowerCase(java.util.Locale.ROOT) + ".codec";
    }
}
