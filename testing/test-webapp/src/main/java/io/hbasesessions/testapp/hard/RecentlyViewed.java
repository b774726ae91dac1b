package io.hbasesessions.testapp.hard;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An LRU cache, as applications keep "recently viewed" items in a session: a {@code LinkedHashMap} in
 * access order that holds at most {@link #max} entries. Its order, its bound and its entries must
 * survive a round trip; a serializer that rebuilds it as a plain map through a constructor it did not
 * call loses the access order and the bound (with a bound of 0 it evicts every entry it puts back).
 */
public final class RecentlyViewed extends LinkedHashMap<String, String> {
    private static final long serialVersionUID = 1L;

    private final int max;

    public RecentlyViewed(int max) {
        super(16, 0.75f, true);
        this.max = max;
    }

    /** The items seen so far, in the order {@link #mutate} and {@link #initial} would leave them. */
    static RecentlyViewed after(int rounds) {
        RecentlyViewed expected = initial();
        for (int round = 1; round <= rounds; round++) {
            expected.view("m" + round);
        }
        return expected;
    }

    static RecentlyViewed initial() {
        RecentlyViewed recent = new RecentlyViewed(3);
        recent.view("a");
        recent.view("b");
        recent.view("c");
        recent.get("a");
        return recent;
    }

    void view(String item) {
        put(item, "seen");
    }

    int max() {
        return max;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<String, String> eldest) {
        return size() > max;
    }
}
