package io.hbasesessions.benchmarks.webapp;

import java.io.Serializable;

/** One line of a shopping cart, mutable as web applications usually write them. */
public final class CartItem implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String sku;
    private final String title;
    private final String imagePath;
    private final long unitPriceCents;
    private int quantity;

    public CartItem(String sku, String title, String imagePath, long unitPriceCents, int quantity) {
        this.sku = sku;
        this.title = title;
        this.imagePath = imagePath;
        this.unitPriceCents = unitPriceCents;
        this.quantity = quantity;
    }

    public long totalCents() {
        return unitPriceCents * quantity;
    }

    public void addOne() {
        quantity++;
    }

    public String sku() {
        return sku;
    }

    public String title() {
        return title;
    }

    public String imagePath() {
        return imagePath;
    }
}
