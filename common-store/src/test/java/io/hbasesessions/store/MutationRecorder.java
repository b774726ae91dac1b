package io.hbasesessions.store;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.AdvancedScanResultConsumer;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RowMutations;

/**
 * Puts a recording proxy around each table of a store: every mutation the store hands to the HBase
 * client is recorded (table, kind, durability, TTL) and then sent on to the real server unchanged.
 * What a test sees is what HBase was asked to do, not a model of it.
 */
final class MutationRecorder implements HBaseSessions.TableView {

    /** One mutation as the store handed it over. */
    record Recorded(String table, Mutation mutation) {
        Durability durability() {
            return mutation.getDurability();
        }

        boolean isPut() {
            return mutation instanceof Put;
        }

        boolean isDelete() {
            return mutation instanceof Delete;
        }

        /** A delete, or the end marker a session's end writes over its row. */
        boolean removes() {
            return isDelete() || isSessionEnd(mutation);
        }

        /** The per-cell TTL in millis; Long.MAX_VALUE when none was set. */
        long ttlMillis() {
            return mutation.getTTL();
        }

        boolean touchesQualifier(byte[] qualifier) {
            return mutation.getFamilyCellMap().values().stream().flatMap(List::stream)
                    .anyMatch(cell -> Arrays.equals(CellUtil.cloneQualifier(cell), qualifier));
        }
    }

    /** The end of a session: a Put of its row whose state cell is the end marker. */
    static boolean isSessionEnd(Mutation mutation) {
        return mutation instanceof Put put && put.has(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE)
                && HBaseSessionRows.isEnd(CellUtil.cloneValue(put.get(HBaseSessionRows.FAMILY, HBaseSessionRows.STATE)
                        .get(0)));
    }

    private final List<Recorded> recorded = new CopyOnWriteArrayList<>();

    @Override
    @SuppressWarnings("unchecked")
    public AsyncTable<AdvancedScanResultConsumer> apply(AsyncTable<AdvancedScanResultConsumer> table) {
        String name = table.getName().getNameAsString();
        return (AsyncTable<AdvancedScanResultConsumer>) Proxy.newProxyInstance(AsyncTable.class.getClassLoader(),
                new Class<?>[] {AsyncTable.class}, (proxy, method, args) -> {
                    if (args != null) {
                        for (Object argument : args) {
                            record(name, argument);
                        }
                    }
                    try {
                        return method.invoke(table, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    private void record(String table, Object argument) {
        if (argument instanceof Mutation mutation) {
            recorded.add(new Recorded(table, mutation));
        } else if (argument instanceof RowMutations rowMutations) {
            rowMutations.getMutations().forEach(mutation -> record(table, mutation));
        } else if (argument instanceof CheckAndMutate checkAndMutate) {
            record(table, checkAndMutate.getAction());
        } else if (argument instanceof Collection<?> many) {
            many.forEach(element -> record(table, element));
        }
    }

    List<Recorded> all() {
        return List.copyOf(recorded);
    }

    List<Recorded> matching(Predicate<Recorded> filter) {
        return recorded.stream().filter(filter).toList();
    }

    /** Forgets what was recorded so far; returns it. */
    List<Recorded> drain() {
        List<Recorded> drained = List.copyOf(recorded);
        recorded.removeAll(drained);
        return drained;
    }
}
