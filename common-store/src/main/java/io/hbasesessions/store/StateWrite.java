package io.hbasesessions.store;

import java.util.OptionalLong;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;

/**
 * One write of a session row: the state and version cells always together (so no cell outlives the
 * others by its TTL), with the cell TTL and the durability this kind of write needs.
 */
record StateWrite(StoredState state, byte[] cell, long version, OptionalLong cellTtlMillis, Durability durability) {

    Put toPut(SessionKey key) {
        Put put = new Put(key.row())
                .addColumn(SessionTable.FAMILY, SessionTable.STATE, cell)
                .addColumn(SessionTable.FAMILY, SessionTable.VERSION, SessionTable.versionBytes(version));
        cellTtlMillis.ifPresent(put::setTTL);
        put.setDurability(durability);
        return put;
    }

    StateWrite withDurability(Durability newDurability) {
        return new StateWrite(state, cell, version, cellTtlMillis, newDurability);
    }

    static Durability durabilityOf(WriteDurability setting) {
        return Durability.valueOf(setting.name());
    }
}
