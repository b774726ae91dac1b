package io.hbasesessions.benchmarks.webapp;

import java.io.Serializable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** A shopping cart that requests change in place, as most applications do. */
public final class Cart implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<CartItem> items = new ArrayList<>();
    private final String currency;
    private String couponCode;
    private Instant updatedAt;

    public Cart(String currency, Instant updatedAt) {
        this.currency = currency;
        this.updatedAt = updatedAt;
    }

    public void add(CartItem item) {
        items.add(item);
    }

    /** Adds one more of the item at {@code index} (modulo the item count) and stamps the change. */
    public void addOneOf(int index, Instant now) {
        items.get(Math.floorMod(index, items.size())).addOne();
        updatedAt = now;
    }

    public void applyCoupon(String code) {
        couponCode = code;
    }

    public long totalCents() {
        return items.stream().mapToLong(CartItem::totalCents).sum();
    }

    public int itemCount() {
        return items.size();
    }

    public String currency() {
        return currency;
    }

    public String couponCode() {
        return couponCode;
    }

    public Instant updatedAt() {
        return updatedAt;
    }
}
