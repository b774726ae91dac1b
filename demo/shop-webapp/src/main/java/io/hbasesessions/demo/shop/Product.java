package io.hbasesessions.demo.shop;

import java.util.List;
import java.util.Optional;

/** The shop's fixed catalogue. */
public record Product(String sku, String name, long priceCents) {

    public static final List<Product> CATALOGUE = List.of(
            new Product("mug", "HBase mug", 1200),
            new Product("tee", "Region server T-shirt", 2500),
            new Product("book", "Sessions that survive, paperback", 3900),
            new Product("sticker", "Sticker pack", 400));

    public static Optional<Product> bySku(String sku) {
        return CATALOGUE.stream().filter(product -> product.sku().equals(sku)).findFirst();
    }
}
