package io.hbasesessions.benchmarks.webapp;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The realistic session every benchmark uses: a cart of 10 items, a user profile, timestamps, a few
 * strings and numbers; about 2 KB in Java serialization form. One definition, so the codec, store and
 * HTTP benchmarks measure the same thing.
 */
public final class BenchmarkSession {

    public static final String CART = "cart";
    public static final String USER = "user";
    public static final String VISITS = "visits";
    public static final String LAST_PAGE = "lastPage";
    public static final String CSRF_TOKEN = "csrfToken";
    public static final String LAST_SEEN_MILLIS = "lastSeenMillis";

    private static final int CART_ITEMS = 10;

    private BenchmarkSession() {
    }

    /** The attributes of a new session of user number {@code user}, in the order an application sets them. */
    public static Map<String, Object> attributes(long user, Instant now) {
        Map<String, Object> attributes = new LinkedHashMap<>();
        attributes.put(USER, profile(user, now));
        attributes.put(CART, cart(user, now));
        attributes.put(VISITS, 1);
        attributes.put(LAST_PAGE, "/catalog/garden/watering-cans?page=2&sort=price-asc");
        attributes.put(CSRF_TOKEN, new UUID(user, now.toEpochMilli()).toString());
        attributes.put(LAST_SEEN_MILLIS, now.toEpochMilli());
        return attributes;
    }

    /**
     * What a write request does to the session: one more of an item (the cart changed in place and set
     * again), one more visit. Works on a map or an {@code HttpSession} alike.
     */
    public static void change(Function<String, Object> get, BiConsumer<String, Object> set, int request, Instant now) {
        Cart cart = (Cart) get.apply(CART);
        cart.addOneOf(request, now);
        set.accept(CART, cart);
        set.accept(VISITS, (Integer) get.apply(VISITS) + 1);
        set.accept(LAST_SEEN_MILLIS, now.toEpochMilli());
    }

    private static UserProfile profile(long user, Instant now) {
        Map<String, String> preferences = new LinkedHashMap<>();
        preferences.put("theme", "dark");
        preferences.put("newsletter", "weekly");
        preferences.put("currency", "EUR");
        return new UserProfile(user, "Customer " + user, "customer" + user + "@example.com", "en-GB",
                new ArrayList<>(List.of("customer", "newsletter")), now.minusSeconds(3600), preferences);
    }

    private static Cart cart(long user, Instant now) {
        Cart cart = new Cart("EUR", now);
        for (int i = 0; i < CART_ITEMS; i++) {
            long sku = user * CART_ITEMS + i;
            cart.add(new CartItem("SKU-" + sku, "Garden product number " + i, "/img/products/" + sku + ".jpg",
                    199 + 100L * i, 1 + i % 3));
        }
        return cart;
    }
}
