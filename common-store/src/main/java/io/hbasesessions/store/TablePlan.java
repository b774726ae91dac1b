package io.hbasesessions.store;

import java.util.List;

/**
 * A table as the store creates it: what {@code hbase-sessions create-tables} prints before it creates anything.
 *
 * @param name {@code [namespace:]name}
 * @param descriptor HBase's description of the table and its family
 * @param splitKeysHex the first-key-byte split points, in hex: {@code regions - 1} of them
 * @param shellCommand the HBase shell command that creates the same table
 */
public record TablePlan(String name, String descriptor, List<String> splitKeysHex, String shellCommand) {
}
