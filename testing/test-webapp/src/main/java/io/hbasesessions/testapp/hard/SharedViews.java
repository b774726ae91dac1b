package io.hbasesessions.testapp.hard;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A list and a map with the JDK's views of them: unmodifiable, synchronized and checked wrappers that
 * share their backing collection. After a round trip each view must still be a view of the very
 * collection this object holds, not of a copy.
 */
public final class SharedViews implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<String> items = new ArrayList<>();
    private final List<String> unmodifiable = Collections.unmodifiableList(items);
    private final List<String> synchronizedView = Collections.synchronizedList(items);
    private final Collection<String> checked = Collections.checkedCollection(items, String.class);
    private final Map<String, Integer> counts = new HashMap<>();
    private final Map<String, Integer> unmodifiableCounts = Collections.unmodifiableMap(counts);
    private final Map<String, Integer> synchronizedCounts = Collections.synchronizedMap(counts);

    public SharedViews(String first) {
        items.add(first);
        counts.put(first, 1);
    }

    /** A change made through one view, in place: the backing list and map and every other view see it. */
    public void add(String item) {
        synchronizedView.add(item);
        synchronizedCounts.merge(item, 1, Integer::sum);
    }

    /** What each view must see; empty when every view shares the backing collections. */
    public List<String> problems() {
        List<String> problems = new ArrayList<>();
        String probe = "probe-" + System.nanoTime();
        items.add(probe);
        counts.put(probe, 0);
        try {
            if (!unmodifiable.contains(probe)) {
                problems.add("the unmodifiable view does not see its list");
            }
            if (!synchronizedView.contains(probe)) {
                problems.add("the synchronized view does not see its list");
            }
            if (!checked.contains(probe)) {
                problems.add("the checked view does not see its list");
            }
            if (!unmodifiableCounts.containsKey(probe)) {
                problems.add("the unmodifiable map view does not see its map");
            }
            if (!synchronizedCounts.containsKey(probe)) {
                problems.add("the synchronized map view does not see its map");
            }
        } finally {
            items.remove(probe);
            counts.remove(probe);
        }
        try {
            unmodifiable.add("x");
            problems.add("the unmodifiable view accepts changes");
        } catch (UnsupportedOperationException expected) {
            // As it should.
        }
        return problems;
    }

    public List<String> items() {
        return List.copyOf(items);
    }

    @Override
    public String toString() {
        return "SharedViews" + items + counts;
    }
}
