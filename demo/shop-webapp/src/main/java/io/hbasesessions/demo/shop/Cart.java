package io.hbasesessions.demo.shop;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cart, kept in the session under {@link #ATTRIBUTE}. Adding an item changes this object in
 * place: the session store notices the change without another {@code setAttribute}.
 */
public final class Cart implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final String ATTRIBUTE = "cart";

    private final Map<String, CartItem> items = new LinkedHashMap<>();

    void add(Product product, int quantity) {
        items.computeIfAbsent(product.sku(), sku -> new CartItem(product, 0)).add(quantity);
    }

    void remove(String sku) {
        items.remove(sku);
    }

    public List<CartItem> items() {
        return new ArrayList<>(items.values());
    }

    public long totalCents() {
        return items.values().stream().mapToLong(CartItem::totalCents).sum();
    }

    @Override
    public String toString() {
        return items.values().toString();
    }
}
