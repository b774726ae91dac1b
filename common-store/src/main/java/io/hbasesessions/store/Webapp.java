package io.hbasesessions.store;

import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * The web application a store serves: the class loader its attribute classes come from (they usually
 * exist only inside its WAR), the container it runs in, and which attributes it lets the store keep
 * (a container may keep some attributes on the node, such as Tomcat's excluded attributes and its
 * session attribute filters: they live for the request and are never stored).
 */
public record Webapp(ClassLoader classLoader, Container container, BiPredicate<String, Object> stores) {

    public Webapp {
        Objects.requireNonNull(classLoader, "classLoader");
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(stores, "stores");
    }

    /** A web application that lets the store keep every attribute. */
    public Webapp(ClassLoader classLoader, Container container) {
        this(classLoader, container, (name, value) -> true);
    }
}
