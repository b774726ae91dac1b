package io.hbasesessions.store;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * The web application a store serves: the class loader its attribute classes come from (they usually
 * exist only inside its WAR), the container it runs in, which attributes it lets the store keep
 * (a container may keep some attributes on the node, such as Tomcat's excluded attributes and its
 * session attribute filters: they live for the request and are never stored), and the route of its node
 * (Tomcat's {@code jvmRoute}, Jetty's worker name), which {@code stickySessions} needs.
 */
public record Webapp(ClassLoader classLoader, Container container, BiPredicate<String, Object> stores,
        Optional<String> route) {

    public Webapp {
        Objects.requireNonNull(classLoader, "classLoader");
        Objects.requireNonNull(container, "container");
        Objects.requireNonNull(stores, "stores");
        Objects.requireNonNull(route, "route");
    }

    /** A web application on a node without a route. */
    public Webapp(ClassLoader classLoader, Container container, BiPredicate<String, Object> stores) {
        this(classLoader, container, stores, Optional.empty());
    }

    /** A web application that lets the store keep every attribute. */
    public Webapp(ClassLoader classLoader, Container container) {
        this(classLoader, container, (name, value) -> true);
    }

    /** This web application on the node whose ids end in {@code .route}; a null or empty route is none. */
    public Webapp onRoute(String nodeRoute) {
        return new Webapp(classLoader, container, stores,
                Optional.ofNullable(nodeRoute).filter(text -> !text.isEmpty()));
    }
}
