package io.hbasesessions.sample.boot;

import java.io.Serializable;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a visitor is buying, kept in the session: a synchronized hash map keyed by an object of the
 * application's own, which must come back from HBase on another node equal and findable.
 */
public final class Cart implements Serializable {

    private static final long serialVersionUID = 1L;

    /** An article of the shop. */
    public record Item(String sku) implements Serializable {
    }

    private final Map<Item, Integer> quantities = Collections.synchronizedMap(new HashMap<>());

    public void add(String sku) {
        quantities.merge(new Item(sku), 1, Integer::sum);
    }

    public int quantityOf(String sku) {
        return quantities.getOrDefault(new Item(sku), 0);
    }

    @Override
    public String toString() {
        Map<String, Integer> bySku = new TreeMap<>();
        synchronized (quantities) {
            quantities.forEach((item, quantity) -> bySku.put(item.sku(), quantity));
        }
        return bySku.toString();
    }
}
