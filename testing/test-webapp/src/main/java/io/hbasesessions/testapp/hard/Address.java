package io.hbasesessions.testapp.hard;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/** A record (no no-arg constructor, final fields set by its canonical constructor only), with a check in it. */
public record Address(String street, int number, List<String> lines) implements Serializable {

    public Address {
        Objects.requireNonNull(street, "street");
        if (number <= 0) {
            throw new IllegalArgumentException("number must be positive");
        }
        lines = List.copyOf(lines);
    }
}
