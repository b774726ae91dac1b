package io.hbasesessions.demo.shop;

import java.io.Serializable;

/** One line of the cart; changed in place when more of the same product is added. */
public final class CartItem implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String sku;
    private final String name;
    private final long priceCents;
    private int quantity;

    CartItem(Product product, int quantity) {
        this.sku = product.sku();
        this.name = product.name();
        this.priceCents = product.priceCents();
        this.quantity = quantity;
    }

    void add(int more) {
        quantity += more;
    }

    public String sku() {
        return sku;
    }

    public String name() {
        return name;
    }

    public int quantity() {
        return quantity;
    }

    public long totalCents() {
        return priceCents * quantity;
    }

    @Override
    public String toString() {
        return quantity + " x " + name;
    }
}
