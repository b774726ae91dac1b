package io.hbasesessions.store;

import java.util.OptionalLong;

/**
 * One write of a session row: the state and version cells always together (so no cell outlives the
 * other by its TTL), with the cell TTL and the durability this kind of write needs.
 *
 * @param cellTtlMillis empty: no cell TTL, the table's TTL alone
 */
record RowWrite(StoredState state, byte[] stateCell, long version, OptionalLong cellTtlMillis, WriteDurability durability) {

    RowWrite withDurability(WriteDurability newDurability) {
        return new RowWrite(state, stateCell, version, cellTtlMillis, newDurability);
    }
}
